import Foundation
import WebImage
import WebImageCodecs
import XCTest

/// SDWebImage's `SDImageCoderEncode*` options through ``ImageCoders/encode(_:as:options:)``
/// with the real coders: maximum pixel size, background colour, maximum file size.
final class EncodeOptionsTests: XCTestCase {
    private let coders = ImageCoders(WebImageCodecs.defaultCoders)

    /// Deterministic noise: the hardest content to compress, so sizes react to every option.
    private func noise(width: Int, height: Int, alpha: UInt8 = 255) -> Image {
        var state: UInt32 = 0x1234_5678
        var bytes = [UInt8](repeating: alpha, count: width * height * 4)
        for i in bytes.indices where i % 4 != 3 {
            state = state &* 1_664_525 &+ 1_013_904_223
            bytes[i] = UInt8(truncatingIfNeeded: state >> 24)
        }
        return Image(pixels: PixelBuffer(width: width, height: height, bytes: bytes))
    }

    func testMaxPixelSizeKeepsTheAspectRatio() {
        XCTAssertEqual(PixelSize(width: 5250, height: 3450).fitting(within: PixelSize(4000)), PixelSize(width: 4000, height: 2629))
        XCTAssertEqual(PixelSize(width: 3450, height: 5250).fitting(within: PixelSize(4000)), PixelSize(width: 2629, height: 4000))
        XCTAssertEqual(PixelSize(width: 300, height: 200).fitting(within: PixelSize(4000)), PixelSize(width: 300, height: 200))
        XCTAssertEqual(PixelSize(width: 10_000, height: 1).fitting(within: PixelSize(100)), PixelSize(width: 100, height: 1))
    }

    /// The full 5250×3450 case, written and read back by libjpeg.
    func testMaxPixelSizeEncodes5250x3450As4000x2629() throws {
        let image = Image(pixels: PixelBuffer(width: 5250, height: 3450, fill: RGBA(r: 40, g: 120, b: 200)))
        let data = try coders.encode(image, as: .jpeg, options: ImageEncodeOptions(maxPixelSize: PixelSize(4000)))
        let header = try coders.header(of: data)
        XCTAssertEqual(header.pixelSize, PixelSize(width: 4000, height: 2629))
        let decoded = try coders.decode(data)
        XCTAssertLessThanOrEqual(abs(Int(decoded.pixels[2000, 1300].b) - 200), 3)
    }

    func testMaxPixelSizeNeverEnlarges() throws {
        let data = try coders.encode(noise(width: 30, height: 20), as: .png, options: ImageEncodeOptions(maxPixelSize: PixelSize(4000)))
        let decoded = try coders.decode(data)
        XCTAssertEqual(PixelSize(width: decoded.pixelWidth, height: decoded.pixelHeight), PixelSize(width: 30, height: 20))
    }

    /// White by default, as SDWebImage; another colour when asked; PNG keeps its alpha.
    func testBackgroundColorFillsTransparencyInJPEG() throws {
        let clear = Image(pixels: PixelBuffer(width: 16, height: 16, fill: .clear))
        let white = try coders.decode(try coders.encode(clear, as: .jpeg)).pixels[8, 8]
        XCTAssertGreaterThanOrEqual(min(white.r, white.g, white.b), 253, "\(white)")
        let red = RGBA(r: 220, g: 10, b: 10)
        let onRed = try coders.decode(try coders.encode(clear, as: .jpeg, options: ImageEncodeOptions(quality: 1, backgroundColor: red))).pixels[8, 8]
        XCTAssertLessThanOrEqual(abs(Int(onRed.r) - 220) + abs(Int(onRed.g) - 10) + abs(Int(onRed.b) - 10), 9, "\(onRed)")
        let half = Image(pixels: PixelBuffer(width: 16, height: 16, fill: RGBA(r: 0, g: 0, b: 0, a: 128)))
        let blended = try coders.decode(try coders.encode(half, as: .jpeg, options: ImageEncodeOptions(quality: 1, backgroundColor: red))).pixels[8, 8]
        XCTAssertLessThanOrEqual(abs(Int(blended.r) - 110), 3, "\(blended)")
        let png = try coders.decode(try coders.encode(half, as: .png, options: ImageEncodeOptions(backgroundColor: red))).pixels[8, 8]
        XCTAssertEqual(png, RGBA(r: 0, g: 0, b: 0, a: 128))
    }

    /// The quality is lowered first: a limit between the quality-90 and quality-10 sizes is met
    /// at the full size.
    func testMaxFileSizeLowersTheQualityFirst() throws {
        let image = noise(width: 128, height: 128)
        let full = try coders.encode(image, as: .jpeg, options: ImageEncodeOptions(quality: 0.9))
        let lowest = try coders.encode(image, as: .jpeg, options: ImageEncodeOptions(quality: 0.1))
        let limit = (full.count + lowest.count) / 2
        let data = try coders.encode(image, as: .jpeg, options: ImageEncodeOptions(quality: 0.9, maxFileSize: limit))
        XCTAssertLessThanOrEqual(data.count, limit)
        XCTAssertEqual(try coders.header(of: data).pixelSize, PixelSize(128))
    }

    /// Below the lowest quality's size, the pixel size goes down too, unless forbidden (the
    /// server's imgproxy `max_bytes`), which returns the lowest quality's output at full size.
    func testMaxFileSizeThenLowersThePixelSize() throws {
        let image = noise(width: 128, height: 128)
        let lowest = try coders.encode(image, as: .jpeg, options: ImageEncodeOptions(quality: 0.1))
        let limit = lowest.count / 3
        let shrunk = try coders.encode(image, as: .jpeg, options: ImageEncodeOptions(maxFileSize: limit))
        XCTAssertLessThanOrEqual(shrunk.count, limit)
        let size = try coders.header(of: shrunk).pixelSize
        XCTAssertLessThan(size.width, 128)
        XCTAssertEqual(size.width, size.height)
        let qualityOnly = try coders.encode(image, as: .jpeg, options: ImageEncodeOptions(maxFileSize: limit, shrinksToFitFileSize: false))
        XCTAssertGreaterThan(qualityOnly.count, limit)
        XCTAssertLessThanOrEqual(qualityOnly.count, lowest.count)
        XCTAssertEqual(try coders.header(of: qualityOnly).pixelSize, PixelSize(128))
    }

    /// A lossless format fits only by its size.
    func testMaxFileSizeShrinksPNG() throws {
        let image = noise(width: 96, height: 64)
        let data = try coders.encode(image, as: .png, options: ImageEncodeOptions(maxFileSize: 4000))
        XCTAssertLessThanOrEqual(data.count, 4000)
        let size = try coders.header(of: data).pixelSize
        XCTAssertLessThan(size.width, 96)
        XCTAssertEqual(Double(size.width) / Double(size.height), 1.5, accuracy: 0.1)
    }
}
