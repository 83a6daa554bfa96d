@testable import WebImageCodecs
import Foundation
import WebImage
import WebImageTestSupport
import XCTest

/// `JXLCoder` encoding (libjxl's `JxlEncoder`), checked by decoding what it wrote.
final class JXLEncoderTests: XCTestCase {
    private let coder = JXLCoder(effort: 3)

    private func roundTrip(_ image: Image, _ options: ImageEncodeOptions) throws -> (Data, Image) {
        let data = try coder.encode(image, as: .jxl, options: options)
        XCTAssertEqual(ImageFormat(detecting: data), .jxl)
        return (data, try coder.decode(data, options: ImageDecodeOptions()))
    }

    func testQualityMapsToCjxlsDistances() {
        XCTAssertEqual(JXLEncoder.distance(quality: 1), 0)
        XCTAssertEqual(JXLEncoder.distance(quality: 0.9), 1, accuracy: 0.0001)
        XCTAssertEqual(JXLEncoder.distance(quality: 0.3), 6.4, accuracy: 0.0001)
        XCTAssertGreaterThan(JXLEncoder.distance(quality: 0.1), 7)
    }

    func testLosslessRoundTripsExactly() throws {
        for name in ["quadrants.png", "alpha.png"] {
            let source = Image(pixels: try FormatFixtures.source(name))
            let (_, decoded) = try roundTrip(source, ImageEncodeOptions(lossless: true))
            assertSamePixels(decoded.pixels, source.pixels, name)
            XCTAssertEqual(decoded.pixels.hasTransparency, source.pixels.hasTransparency, name)
        }
    }

    func testLossyTradesSizeForFidelity() throws {
        let source = Image(pixels: try FormatFixtures.source("quadrants.png"))
        let (good, decoded) = try roundTrip(source, ImageEncodeOptions(quality: 0.9))
        FormatFixtures.assertNear(decoded.pixels, source.pixels, maximum: 60, mean: 3, "quality 90")
        let (poor, _) = try roundTrip(source, ImageEncodeOptions(quality: 0.2))
        XCTAssertLessThan(poor.count, good.count)
    }

    func testAnAnimationKeepsDurationsAndTheLoopCount() throws {
        let colours = [RGBA(r: 200, g: 40, b: 40), RGBA(r: 40, g: 180, b: 40), RGBA(r: 40, g: 40, b: 200)]
        let frames = zip(colours, [0.05, 0.1, 0.2]).map { ImageFrame(pixels: PixelBuffer(width: 20, height: 10, fill: $0), duration: $1) }
        let (_, decoded) = try roundTrip(Image(frames: frames, loopCount: 3), ImageEncodeOptions(lossless: true))
        XCTAssertEqual(decoded.frames.count, 3)
        XCTAssertEqual(decoded.durations.map { ($0 * 1000).rounded() }, [50, 100, 200])
        XCTAssertEqual(decoded.loopCount, 3)
        XCTAssertEqual(decoded.frames.map { $0.pixels[4, 4] }, colours)
    }

    func testOtherFormatsAreRefused() {
        let image = Image(pixels: PixelBuffer(width: 1, height: 1, fill: RGBA(r: 1, g: 2, b: 3)))
        XCTAssertTrue(coder.canEncode(.jxl))
        XCTAssertThrowsError(try coder.encode(image, as: .webp, options: ImageEncodeOptions())) { error in
            XCTAssertEqual(error as? ImageCodingError, .noEncoder(.webp))
        }
    }
}
