/// A reproducible random sequence (SplitMix64), so that random test inputs are the same on
/// every run and a failure can be replayed from its seed.
///
/// As a `RandomNumberGenerator` it also drives `Int.random(in:using:)` and the like.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A sequence starting from `seed`; equal seeds give equal sequences.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The low 8 bits of the next value (one `next()` per byte).
    public mutating func byte() -> UInt8 {
        UInt8(truncatingIfNeeded: next())
    }

    /// `count` bytes, each taken by ``byte()``.
    public mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in byte() }
    }
}
