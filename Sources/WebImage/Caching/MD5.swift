/// MD5 (RFC 1321), for naming disk-cache files the way SDWebImage does.
///
/// Used only as a file-name hash, never for security. Written in Swift so the core links no
/// crypto library.
public enum MD5 {
    /// The 16-byte digest of `bytes`.
    public static func digest<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> [UInt8] {
        let state = digestWords(bytes)
        return (0..<16).map { UInt8(truncatingIfNeeded: state[$0 / 4] >> UInt32($0 % 4 * 8)) }
    }

    /// The digest of `bytes` as 32 lowercase hex digits.
    public static func hex<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        Hexadecimal.lowercase(digest(bytes))
    }

    /// The digest of a string's UTF-8 bytes as 32 lowercase hex digits.
    public static func hex(_ string: String) -> String {
        hex(string.utf8)
    }

    /// The four state words after hashing `bytes`: the digest, little-endian word by word.
    private static func digestWords<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> SIMD4<UInt32> {
        // The message, its 0x80 marker, zeros, and its length in bits: a whole number of blocks.
        let length = bytes.count
        let paddedLength = (length + 8) / 64 * 64 + 64
        var message = [UInt8](repeating: 0, count: paddedLength)
        _ = message.withUnsafeMutableBufferPointer { $0.initialize(fromContentsOf: bytes) }
        message[length] = 0x80
        let bitLength = UInt64(length) &* 8
        for index in 0..<8 { message[paddedLength - 8 + index] = UInt8(truncatingIfNeeded: bitLength >> UInt64(index * 8)) }

        var state = SIMD4<UInt32>(0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476)
        let shifts = shifts, constants = constants
        message.withUnsafeBytes { message in
            for blockStart in stride(from: 0, to: paddedLength, by: 64) {
                let word = { (index: Int) in
                    UInt32(littleEndian: message.loadUnaligned(fromByteOffset: blockStart + index * 4, as: UInt32.self))
                }
                var (a, b, c, d) = (state[0], state[1], state[2], state[3])
                for round in 0..<64 {
                    let f: UInt32, g: Int
                    switch round {
                    case 0..<16: (f, g) = ((b & c) | (~b & d), round)
                    case 16..<32: (f, g) = ((d & b) | (~d & c), (5 * round + 1) % 16)
                    case 32..<48: (f, g) = (b ^ c ^ d, (3 * round + 5) % 16)
                    default: (f, g) = (c ^ (b | ~d), (7 * round) % 16)
                    }
                    let sum = a &+ f &+ constants[round] &+ word(g)
                    (a, d, c) = (d, c, b)
                    b = b &+ (sum << shifts[round] | sum >> (32 - shifts[round]))
                }
                state &+= SIMD4(a, b, c, d)
            }
        }
        return state
    }

    /// Per-round left-rotation amounts.
    private static let shifts: [UInt32] = [
        7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
        5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
        4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
        6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
    ]

    /// floor(abs(sin(i + 1)) × 2³²), precomputed as in RFC 1321.
    private static let constants: [UInt32] = [
        0xd76a_a478, 0xe8c7_b756, 0x2420_70db, 0xc1bd_ceee, 0xf57c_0faf, 0x4787_c62a, 0xa830_4613, 0xfd46_9501,
        0x6980_98d8, 0x8b44_f7af, 0xffff_5bb1, 0x895c_d7be, 0x6b90_1122, 0xfd98_7193, 0xa679_438e, 0x49b4_0821,
        0xf61e_2562, 0xc040_b340, 0x265e_5a51, 0xe9b6_c7aa, 0xd62f_105d, 0x0244_1453, 0xd8a1_e681, 0xe7d3_fbc8,
        0x21e1_cde6, 0xc337_07d6, 0xf4d5_0d87, 0x455a_14ed, 0xa9e3_e905, 0xfcef_a3f8, 0x676f_02d9, 0x8d2a_4c8a,
        0xfffa_3942, 0x8771_f681, 0x6d9d_6122, 0xfde5_380c, 0xa4be_ea44, 0x4bde_cfa9, 0xf6bb_4b60, 0xbebf_bc70,
        0x289b_7ec6, 0xeaa1_27fa, 0xd4ef_3085, 0x0488_1d05, 0xd9d4_d039, 0xe6db_99e5, 0x1fa2_7cf8, 0xc4ac_5665,
        0xf429_2244, 0x432a_ff97, 0xab94_23a7, 0xfc93_a039, 0x655b_59c3, 0x8f0c_cc92, 0xffef_f47d, 0x8584_5dd1,
        0x6fa8_7e4f, 0xfe2c_e6e0, 0xa301_4314, 0x4e08_11a1, 0xf753_7e82, 0xbd3a_f235, 0x2ad7_d2bb, 0xeb86_d391,
    ]
}
