import Foundation
import WebImage
import WebImageCodecs
import WebImageTestSupport
import XCTest

/// Encoding: lossless and lossy round trips, animations, and what the encoder refuses.
final class WebPEncoderTests: XCTestCase {
    let coder = WebPCoder()

    func testEncodesWebPOnly() {
        XCTAssertTrue(coder.canEncode(.webp))
        XCTAssertFalse(coder.canEncode(.png))
        let image = Image(pixels: PixelBuffer(width: 2, height: 2, fill: RGBA(r: 1, g: 2, b: 3)))
        XCTAssertThrowsError(try coder.encode(image, as: .jpeg, options: ImageEncodeOptions())) {
            XCTAssertEqual($0 as? ImageCodingError, .noEncoder(.jpeg))
        }
    }

    func testLosslessRoundTripIsExact() throws {
        // Transparent pixels with white colour: lossless output keeps even those exactly.
        let original = try coder.decode(Fixtures.imageData("webp/lwt_lossless1.webp"), options: ImageDecodeOptions())
        let data = try coder.encode(original, as: .webp, options: ImageEncodeOptions(lossless: true))
        XCTAssertEqual(ImageFormat(detecting: data), .webp)
        let decoded = try coder.decode(data, options: ImageDecodeOptions())
        XCTAssertEqual(decoded.pixels, original.pixels)

        let alpha = try coder.decode(Fixtures.imageData("webp/pil_transparent.webp"), options: ImageDecodeOptions())
        let alphaTrip = try coder.decode(coder.encode(alpha, as: .webp, options: ImageEncodeOptions(lossless: true)),
                                         options: ImageDecodeOptions())
        XCTAssertEqual(alphaTrip.pixels, alpha.pixels)
    }

    func testEffortAndPresetChangeTheEncodingAndHigherEffortIsSmaller() throws {
        let original = try coder.decode(Fixtures.imageData("webp/sd_TestImageStatic.webp"), options: ImageDecodeOptions())
        let options = ImageEncodeOptions(quality: 0.8)
        let fastest = try WebPCoder(effort: 0).encode(original, as: .webp, options: options)
        let standard = try coder.encode(original, as: .webp, options: options)
        let smallest = try WebPCoder(effort: 6).encode(original, as: .webp, options: options)
        XCTAssertEqual(coder.effort, 4, "libwebp's default method, imgproxy's default effort")
        XCTAssertLessThan(smallest.count, fastest.count)
        XCTAssertNotEqual(standard, fastest)
        let drawing = try WebPCoder(preset: .drawing).encode(original, as: .webp, options: options)
        XCTAssertNotEqual(drawing, standard, "the drawing preset filters otherwise")
        XCTAssertEqual(try coder.decode(drawing, options: ImageDecodeOptions()).pixelWidth, original.pixelWidth)
        let lossless = try WebPCoder(effort: 6).encode(original, as: .webp, options: ImageEncodeOptions(lossless: true))
        XCTAssertEqual(try coder.decode(lossless, options: ImageDecodeOptions()).pixels, original.pixels, "lossless at any effort")
    }

    func testLossyRoundTripIsCloseAndQualityMatters() throws {
        let original = try coder.decode(Fixtures.imageData("webp/sd_TestImageStatic.webp"), options: ImageDecodeOptions())
        let high = try coder.encode(original, as: .webp, options: ImageEncodeOptions(quality: 0.9))
        let low = try coder.encode(original, as: .webp, options: ImageEncodeOptions(quality: 0.1))
        XCTAssertLessThan(low.count, high.count)
        let decoded = try coder.decode(high, options: ImageDecodeOptions())
        XCTAssertEqual(decoded.pixelWidth, 550)
        XCTAssertEqual(decoded.pixelHeight, 368)
        XCTAssertLessThan(PixelDifference(decoded.pixels, original.pixels).mean, 3)
        XCTAssertFalse(decoded.pixels.hasTransparency)
    }

    func testLossyKeepsAlpha() throws {
        let original = try coder.decode(Fixtures.imageData("webp/pil_transparent.webp"), options: ImageDecodeOptions())
        let decoded = try coder.decode(coder.encode(original, as: .webp, options: ImageEncodeOptions(quality: 0.8)),
                                       options: ImageDecodeOptions())
        XCTAssertEqual(decoded.pixels[0, 0].a, 0)
        XCTAssertEqual(Int(decoded.pixels[100, 75].a), Int(original.pixels[100, 75].a), accuracy: 2)
    }

    func testAnimationRoundTripKeepsFramesLoopAndDurations() throws {
        let frames = (0..<3).map { index in
            var pixels = PixelBuffer(width: 40, height: 30, fill: RGBA(r: 0, g: 0, b: 0, a: 0))
            for y in 0..<30 { for x in 0..<(10 * (index + 1)) { pixels[x, y] = RGBA(r: UInt8(80 * index), g: 200, b: 50) } }
            return ImageFrame(pixels: pixels, duration: [0.1, 0.25, 0.5][index])
        }
        let animation = Image(frames: frames, format: .webp, loopCount: 3)
        let data = try coder.encode(animation, as: .webp, options: ImageEncodeOptions(lossless: true))
        let decoded = try coder.decode(data, options: ImageDecodeOptions())
        XCTAssertEqual(decoded.frames.count, 3)
        XCTAssertEqual(decoded.loopCount, 3)
        XCTAssertEqual(decoded.durations, [0.1, 0.25, 0.5])
        XCTAssertEqual(decoded.frames.map(\.pixels), frames.map(\.pixels))

        let first = try coder.decode(coder.encode(animation, as: .webp, options: ImageEncodeOptions(lossless: true, firstFrameOnly: true)),
                                     options: ImageDecodeOptions())
        XCTAssertEqual(first.frames.count, 1)
        XCTAssertEqual(first.pixels, frames[0].pixels)
    }

    func testRefusesSizesWebPCannotHold() {
        let wide = Image(pixels: PixelBuffer(width: 16384, height: 1))
        XCTAssertThrowsError(try coder.encode(wide, as: .webp, options: ImageEncodeOptions())) { error in
            guard case .encodingFailed(.webp, _)? = error as? ImageCodingError else {
                return XCTFail("expected encodingFailed, got \(error)")
            }
        }
    }
}
