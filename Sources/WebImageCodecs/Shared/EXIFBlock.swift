import Foundation
import WebImage

/// Finds the TIFF-structured EXIF block an encoded file carries, without decoding it: JPEG's
/// `Exif\0\0` APP1 segment, PNG's `eXIf` chunk, WebP's `EXIF` chunk, the `Exif` item of HEIC
/// and AVIF (``ISOBMFFEXIFItem``), or a TIFF file's own structure. Every length is checked against the bytes, which are hostile input.
public enum EXIFBlock {
    /// The block in `data`, or nil when its format carries none here or the file has none.
    public static func find(in data: Data) -> [UInt8]? {
        let format = ImageFormat(detecting: data)
        if format == .tiff { return [UInt8](data) }
        return data.withUnsafeBytes { bytes -> [UInt8]? in
            switch format {
            case .jpeg: jpeg(bytes)
            case .png: chunk("eXIf", in: bytes, png: true)
            case .webp: chunk("EXIF", in: bytes, png: false)
            case .heic, .avif: ISOBMFFEXIFItem.find(in: bytes)
            default: nil
            }
        }
    }

    /// The payload of the first `Exif\0\0` APP1 segment before the first scan.
    private static func jpeg(_ bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        jpegSegment(0xE1, prefix: Array("Exif\0\0".utf8), in: bytes)
    }

    /// The payload after `prefix` of the first segment with `marker` whose payload starts with
    /// `prefix`, before the first scan.
    static func jpegSegment(_ wanted: UInt8, prefix: [UInt8], in bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        var at = 2
        while at + 4 <= bytes.count, bytes[at] == 0xFF {
            let marker = bytes[at + 1]
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 || marker == 0xFF {
                at += marker == 0xFF ? 1 : 2
                continue
            }
            if marker == 0xDA || marker == 0xD9 { return nil }
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            guard length >= 2, at + 2 + length <= bytes.count else { return nil }
            let payload = bytes[(at + 4)..<(at + 2 + length)]
            if marker == wanted, payload.starts(with: prefix) { return Array(payload.dropFirst(prefix.count)) }
            at += 2 + length
        }
        return nil
    }

    /// The data of the first chunk of `type` (whose data satisfies `matching`): among PNG's
    /// chunks (big-endian length, type, data, CRC; none after the image data starts) when
    /// `png`, else among RIFF's (type, little-endian length, data padded to even), as WebP lays
    /// them out.
    static func chunk(_ type: String, in bytes: UnsafeRawBufferPointer, png: Bool,
                      matching: ([UInt8]) -> Bool = { _ in true }) -> [UInt8]? {
        let wanted = Array(type.utf8)
        var at = png ? 8 : 12
        while at + 8 <= bytes.count {
            let name: [UInt8], length: Int
            if png {
                length = Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
                name = Array(bytes[(at + 4)..<(at + 8)])
            } else {
                name = Array(bytes[at..<(at + 4)])
                length = Int(bytes[at + 4]) | Int(bytes[at + 5]) << 8 | Int(bytes[at + 6]) << 16 | Int(bytes[at + 7]) << 24
            }
            guard length <= bytes.count - at - 8 else { return nil }
            let data = at + 8
            if name == wanted {
                let payload = Array(bytes[data..<(data + length)])
                if matching(payload) { return payload }
            }
            if png, name == Array("IDAT".utf8) { return nil }
            at = data + length + (png ? 4 : length % 2)
        }
        return nil
    }
}
