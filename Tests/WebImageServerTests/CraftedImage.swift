import Foundation

/// Small files that declare huge images, written byte by byte as an attacker would: what the
/// server must refuse from the header, before decoding a pixel.
enum CraftedImage {
    /// A GIF whose logical screen is `width` × `height` with `frames` frames of one pixel each:
    /// a few bytes a frame, however large the canvas every frame is composited onto.
    static func gif(width: Int, height: Int, frames: Int) -> Data {
        var bytes = Array("GIF89a".utf8)
        bytes += le16(width) + le16(height) + [0x80, 0, 0]  // a global table of 2 colours
        bytes += [0, 0, 0, 255, 255, 255]
        bytes += [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [0x03, 0x01, 0x00, 0x00, 0x00]  // loop forever
        for _ in 0..<frames {
            bytes += [0x21, 0xF9, 0x04, 0x00, 0x0A, 0x00, 0x00, 0x00]  // 100 ms
            bytes += [0x2C] + le16(0) + le16(0) + le16(1) + le16(1) + [0x00]
            // LZW, minimum code size 2: clear (4), index 0, end (5), three bits each.
            bytes += [0x02, 0x02, 0x44, 0x01, 0x00]
        }
        return Data(bytes + [0x3B])
    }

    /// A lossless WebP header declaring `side` × `side` pixels (at most 16384), and a few bytes
    /// of image data that end long before such an image would.
    static func webp(side: Int) -> Data {
        let dimensions = UInt32(side - 1) | UInt32(side - 1) << 14
        let payload: [UInt8] = [0x2F] + le32(Int(dimensions)) + [0, 0, 0, 0, 0, 0, 0, 0, 0]  // an even chunk
        let chunk = Array("VP8L".utf8) + le32(payload.count) + payload
        return Data(Array("RIFF".utf8) + le32(4 + chunk.count) + Array("WEBP".utf8) + chunk)
    }

    /// `value`'s low 16 bits, little-endian.
    static func le16(_ value: Int) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)]
    }

    /// `value`'s low 32 bits, little-endian.
    static func le32(_ value: Int) -> [UInt8] {
        le16(value & 0xFFFF) + le16(value >> 16 & 0xFFFF)
    }
}
