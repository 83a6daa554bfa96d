/// The picture size an HEVC sequence parameter set (NAL unit type 33) states, read before
/// libde265 sees the unit: libde265 allocates its pictures at that size, so it is checked
/// against the size the container admits to first (H.265 §7.3.2.2).
struct HEVCPictureSize {
    let width: Int
    let height: Int

    /// Whether `unit` (a NAL unit, header included) is a sequence parameter set.
    static func isSequenceParameterSet(_ unit: UnsafeRawBufferPointer) -> Bool {
        unit.count >= 2 && (unit[0] >> 1) & 0x3F == 33
    }

    /// The size a sequence parameter set states; nil when its bits end first.
    init?(sequenceParameterSet unit: UnsafeRawBufferPointer) {
        var bits = RBSPBitReader(unit.dropFirst(2))
        _ = bits.read(4)  // sps_video_parameter_set_id
        guard let subLayers = bits.read(3) else { return nil }  // sps_max_sub_layers_minus1
        _ = bits.read(1)
        // profile_tier_level: the general profile (88 bits) and level (8 bits), then a
        // present flag pair per sub-layer, padding to eight pairs, and what the flags announce.
        _ = bits.skip(96)
        var present: [(profile: Bool, level: Bool)] = []
        for _ in 0..<subLayers {
            guard let profile = bits.read(1), let level = bits.read(1) else { return nil }
            present.append((profile == 1, level == 1))
        }
        if subLayers > 0 { _ = bits.skip(2 * (8 - subLayers)) }
        for layer in present {
            if layer.profile { _ = bits.skip(88) }
            if layer.level { _ = bits.skip(8) }
        }
        guard bits.readExponentialGolomb() != nil, let chroma = bits.readExponentialGolomb() else { return nil }
        if chroma == 3 { _ = bits.read(1) }
        guard let width = bits.readExponentialGolomb(), let height = bits.readExponentialGolomb() else { return nil }
        self.width = width
        self.height = height
    }
}

/// Reads the bits of a NAL unit's payload (its raw byte sequence: every emulation prevention
/// byte, the 3 of `00 00 03`, left out), most significant first.
private struct RBSPBitReader {
    private var bytes: [UInt8] = []
    private var position = 0

    init(_ payload: Slice<UnsafeRawBufferPointer>) {
        var zeros = 0
        for byte in payload {
            if zeros >= 2, byte == 3 {
                zeros = 0
                continue
            }
            zeros = byte == 0 ? zeros + 1 : 0
            bytes.append(byte)
        }
    }

    /// The next `count` bits (≤ 32) as an integer; nil past the end.
    mutating func read(_ count: Int) -> Int? {
        guard count <= 32, position + count <= bytes.count * 8 else { return nil }
        var value = 0
        for _ in 0..<count {
            value = value << 1 | Int(bytes[position >> 3] >> (7 - UInt8(position & 7)) & 1)
            position += 1
        }
        return value
    }

    /// Skips `count` bits; false past the end.
    mutating func skip(_ count: Int) -> Bool {
        guard position + count <= bytes.count * 8 else { return false }
        position += count
        return true
    }

    /// An unsigned exponential-Golomb code, ue(v); nil past the end or over 31 leading zeros.
    mutating func readExponentialGolomb() -> Int? {
        var zeros = 0
        while true {
            guard let bit = read(1) else { return nil }
            if bit == 1 { break }
            zeros += 1
            guard zeros <= 31 else { return nil }
        }
        guard let suffix = read(zeros) else { return nil }
        return (1 << zeros) - 1 + suffix
    }
}
