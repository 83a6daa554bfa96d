import Foundation
import WebImage

/// The transforms built so far, one per profile and kind of pixels, so that the photos of one
/// camera or phone (which all embed the same profile) pay for lcms2's set-up once.
///
/// Keyed by a hash of the profile's bytes, checked against the bytes themselves on a hit (a
/// crafted collision cannot borrow another profile's transform). Profiles lcms2 refuses are
/// remembered too, so a hostile file sent again costs a lookup. At most ``capacity`` entries,
/// least recently used dropped first; a transform in use by a decode lives on until it ends.
final class ColorTransformCache: Sendable {
    /// What a profile turned into.
    enum Entry: Sendable {
        /// The profile is sRGB already (within one level per channel): nothing to do.
        case identity
        /// Convert through this transform.
        case transform(ColorTransform)
        /// The profile cannot be used.
        case failed(ColorProfileError)
    }

    /// A profile's bytes and the pixels read through it.
    struct Key: Hashable, Sendable {
        /// The bytes as an array: a `Data` kept in a long-lived cache hides its storage pointer
        /// in spare bits, and LeakSanitizer (the fuzz runs) then reports the cached profiles as
        /// leaked.
        let profile: [UInt8]
        let input: ColorTransform.Input
        /// Every byte hashed once, when the key is made.
        private let digest: Int

        init(profile: Data, input: ColorTransform.Input) {
            self.profile = [UInt8](profile)
            self.input = input
            var hasher = Hasher()
            profile.withUnsafeBytes { hasher.combine(bytes: $0) }
            hasher.combine(input)
            digest = hasher.finalize()
        }

        static func == (a: Key, b: Key) -> Bool {
            a.digest == b.digest && a.input == b.input && a.profile == b.profile
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(digest)
        }
    }

    /// The cache every decoder uses.
    static let shared = ColorTransformCache(capacity: 32)

    /// The most profiles kept.
    let capacity: Int
    private let entries: MemoryCache<Key, Entry>

    init(capacity: Int) {
        self.capacity = capacity
        entries = MemoryCache(costLimit: 0, countLimit: capacity)
    }

    /// The number of profiles held.
    var count: Int { entries.count }

    /// The entry for `profile` read as `input`, built on a miss. Two decodes that miss at once
    /// may both build it; the later one's is kept.
    func entry(for profile: ColorProfile, input: ColorTransform.Input) -> Entry {
        let key = Key(profile: profile.data, input: input)
        if let entry = entries.value(forKey: key) { return entry }
        let entry = Self.build(profile, input: input)
        entries.setValue(entry, forKey: key)
        return entry
    }

    private static func build(_ profile: ColorProfile, input: ColorTransform.Input) -> Entry {
        do {
            let transform = try ColorTransform(profile: profile, input: input)
            return input == .rgb && transform.isNearIdentity ? .identity : .transform(transform)
        } catch {
            return .failed(error)
        }
    }
}
