import Foundation
import WebImage

/// The headers of a Windows bitmap: the 14-byte file header and the DIB header that follows
/// (OS/2 `BITMAPCOREHEADER`, `BITMAPINFOHEADER` and its V2–V5 extensions), with the palette
/// and the channel masks. Every field is checked against the file's length before use.
struct BMPHeader {
    /// How the pixel array is stored.
    enum Compression: UInt32 {
        case rgb = 0, rle8 = 1, rle4 = 2, bitfields = 3, alphaBitfields = 6
    }

    /// The largest side read: beyond it no real bitmap goes, and sizes stay far from overflow.
    static let maxSide = 1 << 20

    /// Columns.
    let width: Int
    /// Rows.
    let height: Int
    /// Whether the first stored row is the top one (a negative height in the file).
    let topDown: Bool
    /// Bits per pixel: 1, 4, 8, 16, 24 or 32.
    let bitCount: Int
    /// How the pixels are stored.
    let compression: Compression
    /// Where the pixel array starts in the file.
    let pixelOffset: Int
    /// The colour table, for 1, 4 and 8 bits per pixel.
    let palette: [RGBA]
    /// Red, green, blue and alpha masks, for 16 and 32 bits per pixel (alpha 0 when none).
    let masks: [UInt32]

    /// The headers of `file`, or a typed error for a file that is not a bitmap WebImage reads.
    init(_ file: UnsafeRawBufferPointer) throws(ImageCodingError) {
        guard file.count >= 26 else { throw .truncated(.bmp) }
        guard file[0] == UInt8(ascii: "B"), file[1] == UInt8(ascii: "M") else { throw .unsupportedFormat(ImageFormat(detecting: Data(file.prefix(16)))) }
        let read = BMPBytes(file)
        let infoSize = Int(read.u32(14))
        guard [12, 40, 52, 56, 64, 108, 124].contains(infoSize) else {
            throw .unsupportedFeature(.bmp, "a DIB header of \(infoSize) bytes")
        }
        guard file.count >= 14 + infoSize else { throw .truncated(.bmp) }
        let rawWidth: Int, rawHeight: Int, bitCount: Int
        var compressionCode: UInt32 = 0, colorsUsed = 0
        if infoSize == 12 {
            rawWidth = Int(read.u16(18)); rawHeight = Int(Int16(bitPattern: read.u16(20))); bitCount = Int(read.u16(24))
        } else {
            rawWidth = Int(Int32(bitPattern: read.u32(18))); rawHeight = Int(Int32(bitPattern: read.u32(22)))
            bitCount = Int(read.u16(28)); compressionCode = read.u32(30); colorsUsed = Int(read.u32(46))
        }
        guard let compression = Compression(rawValue: compressionCode) else {
            throw .unsupportedFeature(.bmp, "compression \(compressionCode) (JPEG, PNG and Huffman bitmaps are not read)")
        }
        guard rawWidth > 0, rawHeight != 0, rawWidth <= Self.maxSide, abs(rawHeight) <= Self.maxSide else {
            throw .corrupt(.bmp, "size \(rawWidth)x\(rawHeight)")
        }
        guard [1, 4, 8, 16, 24, 32].contains(bitCount) else { throw .corrupt(.bmp, "\(bitCount) bits per pixel") }
        switch compression {
        case .rle8 where bitCount != 8, .rle4 where bitCount != 4:
            throw .corrupt(.bmp, "run-length compression with \(bitCount) bits per pixel")
        case .bitfields where bitCount != 16 && bitCount != 32, .alphaBitfields where bitCount != 16 && bitCount != 32:
            throw .corrupt(.bmp, "bit fields with \(bitCount) bits per pixel")
        case .rle4 where rawHeight < 0, .rle8 where rawHeight < 0:
            throw .corrupt(.bmp, "a top-down run-length bitmap")
        default: break
        }
        width = rawWidth
        height = abs(rawHeight)
        topDown = rawHeight < 0
        self.bitCount = bitCount
        self.compression = compression
        pixelOffset = Int(read.u32(10))
        guard pixelOffset <= file.count else { throw .truncated(.bmp) }
        masks = try Self.masks(read, infoSize: infoSize, bitCount: bitCount, compression: compression)
        palette = try Self.palette(read, infoSize: infoSize, bitCount: bitCount, colorsUsed: colorsUsed)
    }

    /// The channel masks: stored in the V2+ header or right after a 40-byte one for bit fields,
    /// else the defaults (5-5-5 for 16 bits, 8-8-8 with no alpha for 32).
    private static func masks(_ read: BMPBytes, infoSize: Int, bitCount: Int,
                              compression: Compression) throws(ImageCodingError) -> [UInt32] {
        guard bitCount == 16 || bitCount == 32 else { return [] }
        guard compression == .bitfields || compression == .alphaBitfields else {
            return bitCount == 16 ? [0x7C00, 0x03E0, 0x001F, 0] : [0xFF_0000, 0xFF00, 0xFF, 0]
        }
        let count = compression == .alphaBitfields || infoSize >= 56 ? 4 : 3
        guard read.count >= 54 + count * 4 else { throw .truncated(.bmp) }
        let masks = (0..<count).map { read.u32(54 + $0 * 4) } + (count == 3 ? [0] : [])
        guard masks[0] | masks[1] | masks[2] != 0 else { throw .corrupt(.bmp, "empty colour masks") }
        return masks
    }

    /// The colour table after the headers: `colorsUsed` entries (all 2^bits when 0), of three
    /// bytes after a core header and four otherwise, blue first. (Bit-field masks, which may
    /// also follow a 40-byte header, come only with 16 and 32 bits, which have no table.)
    private static func palette(_ read: BMPBytes, infoSize: Int, bitCount: Int,
                                colorsUsed: Int) throws(ImageCodingError) -> [RGBA] {
        guard bitCount <= 8 else { return [] }
        let entrySize = infoSize == 12 ? 3 : 4
        let count = colorsUsed > 0 && colorsUsed <= 1 << bitCount ? colorsUsed : 1 << bitCount
        let start = 14 + infoSize
        let available = max(0, (read.count - start) / entrySize)
        guard available > 0 else { throw .truncated(.bmp) }
        return (0..<min(count, available)).map { index in
            let offset = start + index * entrySize
            return RGBA(r: read.u8(offset + 2), g: read.u8(offset + 1), b: read.u8(offset))
        }
    }
}
