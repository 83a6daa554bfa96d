@testable import WebImageCodecs
import Foundation
import WebImage
import WebImageTestSupport
import XCTest

/// `AVIFCoder` encoding (libavif with libaom), checked by decoding what it wrote.
final class AVIFEncoderTests: XCTestCase {
    private let coder = AVIFCoder()

    private func roundTrip(_ image: Image, _ options: ImageEncodeOptions = ImageEncodeOptions()) throws -> (Data, Image) {
        let data = try coder.encode(image, as: .avif, options: options)
        XCTAssertEqual(ImageFormat(detecting: data), .avif)
        return (data, try coder.decode(data, options: ImageDecodeOptions()))
    }

    func testQualityMapsToLibavifsQuantizers() {
        XCTAssertEqual(AVIFEncoder.quantizer(quality: 1), 0)
        XCTAssertEqual(AVIFEncoder.quantizer(quality: 0.9), 6)
        XCTAssertEqual(AVIFEncoder.quantizer(quality: 0.5), 32)
        XCTAssertEqual(AVIFEncoder.quantizer(quality: 0.01), 62)
        XCTAssertEqual(AVIFEncoder.quantizer(quality: 0), 62, "quality 0 is read as 1")
    }

    func testAStillRoundTripsAndQualityTradesSizeForFidelity() throws {
        let source = Image(pixels: try FormatFixtures.source("quadrants.png"))
        XCTAssertTrue(coder.canEncode(.avif))
        let (good, decoded) = try roundTrip(source, ImageEncodeOptions(quality: 0.9))
        XCTAssertEqual(decoded.frames.count, 1)
        XCTAssertFalse(decoded.pixels.hasTransparency, "an opaque image gets no alpha plane")
        FormatFixtures.assertNear(decoded.pixels, source.pixels, maximum: 60, mean: 2.5, "q90")
        let (poor, _) = try roundTrip(source, ImageEncodeOptions(quality: 0.2))
        XCTAssertLessThan(poor.count, good.count)
    }

    func testLosslessIsExact() throws {
        let source = Image(pixels: try FormatFixtures.source("alpha.png"))
        let (_, decoded) = try roundTrip(source, ImageEncodeOptions(lossless: true))
        assertSamePixels(decoded.pixels, source.pixels, "lossless AVIF")
    }

    func testAlphaIsKept() throws {
        let source = Image(pixels: try FormatFixtures.source("alpha.png"))
        let (_, decoded) = try roundTrip(source, ImageEncodeOptions(quality: 0.9))
        XCTAssertTrue(decoded.pixels.hasTransparency)
        for x in [0, 32, 63] {
            XCTAssertEqual(Double(decoded.pixels[x, 5].a), Double(source.pixels[x, 5].a), accuracy: 8, "alpha at x = \(x)")
        }
    }

    func testAnAnimationBecomesASequence() throws {
        let colours = [RGBA(r: 200, g: 40, b: 40), RGBA(r: 40, g: 180, b: 40)]
        let frames = zip(colours, [0.1, 0.25]).map { ImageFrame(pixels: PixelBuffer(width: 24, height: 16, fill: $0), duration: $1) }
        let (_, decoded) = try roundTrip(Image(frames: frames, loopCount: 0))
        XCTAssertEqual(decoded.frames.count, 2)
        XCTAssertEqual(decoded.durations.map { ($0 * 1000).rounded() }, [100, 250])
        for (frame, colour) in zip(decoded.frames, colours) { assertClose(frame.pixels[12, 8], colour, tolerance: 6) }
        let (_, first) = try roundTrip(Image(frames: frames), ImageEncodeOptions(firstFrameOnly: true))
        XCTAssertEqual(first.frames.count, 1)
    }

    func testOtherFormatsAreRefused() {
        let image = Image(pixels: PixelBuffer(width: 1, height: 1, fill: RGBA(r: 1, g: 2, b: 3)))
        XCTAssertFalse(coder.canEncode(.heic))
        XCTAssertThrowsError(try coder.encode(image, as: .png, options: ImageEncodeOptions())) { error in
            XCTAssertEqual(error as? ImageCodingError, .noEncoder(.png))
        }
    }
}
