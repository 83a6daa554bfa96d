import Foundation
import WebImage

/// Writes the first frame as a Windows bitmap, as ImageIO writes it for SDWebImage: 24 bits a
/// pixel (`BITMAPINFOHEADER`, no compression) when every pixel is opaque, else 32 bits with
/// bit-field masks for blue, green, red and alpha under a `BITMAPV4HEADER` (which Pillow,
/// browsers and Windows read as BGRA), rows bottom-up and padded to four bytes, 72 dpi.
struct BMPEncoder {
    /// `pixels` as a bitmap; throws ``ImageCodingError/encodingFailed(_:_:)`` for one a
    /// bitmap's 32-bit sizes cannot hold.
    func encode(_ pixels: PixelBuffer) throws(ImageCodingError) -> Data {
        let alpha = pixels.hasTransparency
        let width = pixels.width, height = pixels.height, bytesPerPixel = alpha ? 4 : 3
        let rowBytes = (width * bytesPerPixel + 3) / 4 * 4
        let headerBytes = alpha ? 108 : 40, offset = 14 + headerBytes
        let (image, overflow) = rowBytes.multipliedReportingOverflow(by: height)
        guard width > 0, height > 0, !overflow, offset + image <= Int(UInt32.max), width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw .encodingFailed(.bmp, "\(width) × \(height) pixels do not fit a bitmap's sizes")
        }
        var data = Data(capacity: offset + image)
        func u16(_ value: Int) { data.append(contentsOf: [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)]) }
        func u32(_ value: Int) { u16(value & 0xFFFF); u16(value >> 16 & 0xFFFF) }
        data.append(contentsOf: Array("BM".utf8))
        u32(offset + image)
        u32(0)
        u32(offset)
        u32(headerBytes)
        u32(width)
        u32(height)  // positive: bottom-up
        u16(1)
        u16(bytesPerPixel * 8)
        u32(alpha ? 3 : 0)  // BI_BITFIELDS or BI_RGB
        u32(image)
        u32(2835)  // 72 dpi, in pixels a metre
        u32(2835)
        u32(0)
        u32(0)
        if alpha {
            for mask in [0x00FF_0000, 0x0000_FF00, 0x0000_00FF, 0xFF00_0000] { u32(mask) }
            u32(0x7352_4742)  // LCS_sRGB
            data.append(contentsOf: [UInt8](repeating: 0, count: 36 + 12))  // endpoints and gammas, unused with sRGB
        }
        var row = [UInt8](repeating: 0, count: rowBytes)
        pixels.bytes.withUnsafeBytes { source in
            for y in stride(from: height - 1, through: 0, by: -1) {
                let start = y * width * 4
                for x in 0..<width {
                    let p = start + x * 4, q = x * bytesPerPixel
                    row[q] = source[p + 2]
                    row[q + 1] = source[p + 1]
                    row[q + 2] = source[p]
                    if alpha { row[q + 3] = source[p + 3] }
                }
                data.append(contentsOf: row)
            }
        }
        return data
    }
}
