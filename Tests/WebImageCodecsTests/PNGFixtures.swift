import Foundation
import WebImage
import WebImageTestSupport
@testable import WebImageCodecs

/// PNG-specific fixture helpers: Pillow's reference frames and chunk edits (reading the
/// fixtures is `Fixtures`' job).
enum PNGFixtures {
    /// Pillow's frame (`f0` or `last`) of `images/png/NAME`, decoded with our coder (the refs
    /// are plain 8-bit RGBA PNGs).
    static func reference(_ name: String, _ frame: String) throws -> PixelBuffer {
        try PNGCoder().decode(Fixtures.imageData("ref/\(name).\(frame).png"), options: ImageDecodeOptions()).pixels
    }

    /// `bytes` with the CRC of the chunk at `start` (its length field) recomputed.
    static func fixingCRC(_ bytes: [UInt8], chunkAt start: Int) -> [UInt8] {
        var bytes = bytes
        let length = Int(bytes[start]) << 24 | Int(bytes[start + 1]) << 16 | Int(bytes[start + 2]) << 8 | Int(bytes[start + 3])
        let crc = CRC32.checksum(bytes[start + 4 ..< start + 8 + length])
        for i in 0..<4 { bytes[start + 8 + length + i] = UInt8(crc >> (24 - 8 * i) & 0xFF) }
        return bytes
    }

    /// `value` written big-endian at `offset` of `bytes`.
    static func patching(_ bytes: [UInt8], uint32 value: UInt32, at offset: Int) -> [UInt8] {
        var bytes = bytes
        for i in 0..<4 { bytes[offset + i] = UInt8(value >> (24 - 8 * i) & 0xFF) }
        return bytes
    }
}
