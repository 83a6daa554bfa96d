import Foundation
import WebImage
@testable import WebImageCodecs

/// Images with the shapes of imgproxy's test images, drawn here, so that imgproxy's test tables
/// apply to them: a 200 × 100 picture whose every pixel says where it is, and three images with
/// borders to trim.
enum ImgproxyTestImages {
    /// 200 × 100, opaque, red = x and green = 2y: a pixel's colour names its place in the source.
    static var geometry: PixelBuffer {
        var pixels = PixelBuffer(width: 200, height: 100)
        for y in 0..<100 {
            for x in 0..<200 { pixels[x, y] = RGBA(r: UInt8(x), g: UInt8(2 * y), b: 128) }
        }
        return pixels
    }

    /// 350 × 250: a black 200 × 100 core inside five grey frames (51, 102, 153, 204, then white
    /// 255 outermost), each 10 pixels wide on the left and top and 20 on the right and bottom.
    static var frames: PixelBuffer {
        var pixels = PixelBuffer(width: 350, height: 250)
        for y in 0..<250 {
            for x in 0..<350 {
                // The frame a pixel is in: 0 the outermost, 5 the core.
                let fromLeft = x / 10, fromTop = y / 10, fromRight = (349 - x) / 20, fromBottom = (249 - y) / 20
                let depth = min(5, fromLeft, fromTop, fromRight, fromBottom)
                let grey = UInt8(255 - 51 * depth)
                pixels[x, y] = RGBA(r: grey, g: grey, b: grey)
            }
        }
        return pixels
    }

    /// 200 × 200 in three bands from the top: 30 rows of red, 100 of green, then 70 of
    /// `bottom` (blue, or transparent).
    static func bands(bottom: RGBA) -> PixelBuffer {
        var pixels = PixelBuffer(width: 200, height: 200)
        for y in 0..<200 {
            let colour = y < 30 ? RGBA(r: 255, g: 0, b: 0) : y < 130 ? RGBA(r: 0, g: 255, b: 0) : bottom
            for x in 0..<200 { pixels[x, y] = colour }
        }
        return pixels
    }

    /// `pixels` as PNG bytes.
    static func png(_ pixels: PixelBuffer) throws -> Data {
        try ImageCoders(WebImageCodecs.defaultCoders).encode(Image(pixels: pixels), as: .png)
    }

    /// `pixels` as a PNG whose `eXIf` chunk gives EXIF orientation `orientation` (1…8), as
    /// imgproxy's `orientation-N.png` test images: the same stored pixels, told apart only by the tag.
    static func png(_ pixels: PixelBuffer, exifOrientation orientation: UInt8) throws -> Data {
        let bytes = [UInt8](try png(pixels))
        // A big-endian TIFF header and one IFD entry: 0x0112 (orientation), SHORT, count 1.
        let tiff: [UInt8] = Array("MM".utf8) + [0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0, 0, 0, 0, 0]
        let typeAndData = Array("eXIf".utf8) + tiff
        var chunk: [UInt8] = [0, 0, 0, UInt8(tiff.count)] + typeAndData
        let crc = CRC32.checksum(typeAndData)
        chunk += [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        // After the signature (8 bytes) and IHDR (25): where a PNG's ancillary chunks may begin.
        return Data(bytes[..<33] + chunk + bytes[33...])
    }

    /// A 32-bit BMP with an alpha mask (a `BITMAPV4HEADER` with bit fields), 20 × 10: the left
    /// half opaque blue, the right half fully transparent, as imgproxy's `32-bpp-with-alpha.bmp`
    /// has transparency to flatten.
    static var bmpWithAlpha: Data {
        let width = 20, height = 10
        let le16 = CraftedImage.le16, le32 = CraftedImage.le32
        var pixels: [UInt8] = []
        for _ in 0..<height {
            for x in 0..<width { pixels += x < width / 2 ? [255, 0, 0, 255] : [0, 0, 0, 0] }  // B, G, R, A
        }
        var info = le32(108) + le32(width) + le32(height) + le16(1) + le16(32) + le32(3)
        info += le32(pixels.count) + le32(2835) + le32(2835) + le32(0) + le32(0)
        info += le32(0x00FF_0000) + le32(0x0000_FF00) + le32(0x0000_00FF) + le32(0xFF00_0000)
        info += le32(0x7352_4742) + [UInt8](repeating: 0, count: 48)
        let offset = 14 + info.count
        return Data(Array("BM".utf8) + le32(offset + pixels.count) + le32(0) + le32(offset) + info + pixels)
    }
}
