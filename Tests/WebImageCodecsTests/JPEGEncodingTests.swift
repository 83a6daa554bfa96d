import Foundation
import WebImage
import WebImageCodecs
import WebImageTestSupport
import XCTest

/// Encoding: round trips, quality, alpha.
final class JPEGEncodingTests: XCTestCase {
    private let coder = JPEGCoder()

    func testRoundTripAtQuality90() throws {
        let original = try coder.decode(try Fixtures.benchData("testjfif_256.jpg"), options: ImageDecodeOptions())
        let data = try coder.encode(original, as: .jpeg, options: ImageEncodeOptions(quality: 0.9))
        XCTAssertEqual(ImageFormat(detecting: data), .jpeg)
        let decoded = try coder.decode(data, options: ImageDecodeOptions())
        XCTAssertEqual(decoded.pixelWidth, 256)
        XCTAssertEqual(decoded.pixelHeight, 192)
        XCTAssertLessThan(PixelDifference(decoded.pixels, original.pixels).mean, 2.5)
    }

    func testLowerQualityIsSmaller() throws {
        let image = try coder.decode(try Fixtures.benchData("testjfif_256.jpg"), options: ImageDecodeOptions())
        let small = try coder.encode(image, as: .jpeg, options: ImageEncodeOptions(quality: 0.2))
        let large = try coder.encode(image, as: .jpeg, options: ImageEncodeOptions(quality: 1))
        XCTAssertLessThan(small.count * 2, large.count)
    }

    /// JPEG has no alpha: transparent becomes white, half-transparent black becomes mid-grey.
    func testAlphaIsCompositedOverWhite() throws {
        var pixels = PixelBuffer(width: 16, height: 16, fill: RGBA(r: 0, g: 0, b: 0, a: 0))
        for y in 8..<16 { for x in 0..<16 { pixels[x, y] = RGBA(r: 0, g: 0, b: 0, a: 128) } }
        let data = try coder.encode(Image(pixels: pixels), as: .jpeg, options: ImageEncodeOptions(quality: 1))
        let decoded = try coder.decode(data, options: ImageDecodeOptions()).pixels
        XCTAssertFalse(decoded.hasTransparency)
        for (pixel, expected) in [(decoded[4, 2], 255), (decoded[4, 13], 127)] {
            XCTAssertLessThanOrEqual(abs(Int(pixel.r) - expected), 2, "\(pixel)")
            XCTAssertLessThanOrEqual(abs(Int(pixel.g) - expected), 2, "\(pixel)")
        }
    }

    func testOnlyJPEGIsEncoded() throws {
        XCTAssertTrue(coder.canEncode(.jpeg))
        XCTAssertFalse(coder.canEncode(.png))
        let image = Image(pixels: PixelBuffer(width: 2, height: 2, fill: RGBA(r: 1, g: 2, b: 3)))
        XCTAssertThrowsError(try coder.encode(image, as: .png, options: ImageEncodeOptions())) {
            XCTAssertEqual($0 as? ImageCodingError, .noEncoder(.png))
        }
    }

    func testEmptyImageFailsTyped() {
        let image = Image(pixels: PixelBuffer(width: 0, height: 0))
        XCTAssertThrowsError(try coder.encode(image, as: .jpeg, options: ImageEncodeOptions())) {
            guard case .encodingFailed(.jpeg, _) = $0 as? ImageCodingError else { return XCTFail("\($0)") }
        }
    }
}
