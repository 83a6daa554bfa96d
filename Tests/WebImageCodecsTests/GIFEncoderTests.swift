import Foundation
import WebImage
import WebImageCodecs
import WebImageTestSupport
import XCTest

/// GIF encoding: palettes, transparency, loop count and delays, read back by our decoder.
final class GIFEncoderTests: XCTestCase {
    let coder = GIFCoder()

    func testEncodesGIFOnlyAndThroughTheRegistry() throws {
        XCTAssertTrue(coder.canEncode(.gif))
        XCTAssertFalse(coder.canEncode(.png))
        let image = Image(pixels: PixelBuffer(width: 3, height: 2, fill: RGBA(r: 1, g: 2, b: 3)))
        XCTAssertThrowsError(try coder.encode(image, as: .jpeg, options: ImageEncodeOptions())) {
            XCTAssertEqual($0 as? ImageCodingError, .noEncoder(.jpeg))
        }
        let registry = ImageCoders(WebImageCodecs.defaultCoders)
        let data = try registry.encode(image, as: .gif)
        XCTAssertEqual(ImageFormat(detecting: data), .gif)
        XCTAssertTrue(data.starts(with: Array("GIF89a".utf8)))
        XCTAssertEqual(try registry.decode(data).pixels, image.pixels)
    }

    func testFewColoursRoundTripExactly() throws {
        var pixels = PixelBuffer(width: 16, height: 16)
        for y in 0..<16 { for x in 0..<16 { pixels[x, y] = RGBA(r: UInt8(x * 16), g: UInt8(y * 16), b: UInt8((x ^ y) * 16)) } }
        let decoded = try coder.decode(coder.encode(Image(pixels: pixels), as: .gif, options: ImageEncodeOptions()),
                                       options: ImageDecodeOptions())
        XCTAssertEqual(decoded.frames.count, 1)
        XCTAssertEqual(decoded.loopCount, 1)
        XCTAssertEqual(decoded.pixels, pixels, "256 colours fit the palette exactly")
    }

    func testAlphaUnderHalfBecomesTransparent() throws {
        var pixels = PixelBuffer(width: 4, height: 1, fill: RGBA(r: 200, g: 10, b: 10))
        pixels[1, 0].a = 127
        pixels[2, 0].a = 128
        pixels[3, 0] = .clear
        let decoded = try coder.decode(coder.encode(Image(pixels: pixels), as: .gif, options: ImageEncodeOptions()),
                                       options: ImageDecodeOptions()).pixels
        XCTAssertEqual(decoded[0, 0], RGBA(r: 200, g: 10, b: 10))
        XCTAssertEqual(decoded[1, 0].a, 0)
        XCTAssertEqual(decoded[2, 0], RGBA(r: 200, g: 10, b: 10))
        XCTAssertEqual(decoded[3, 0].a, 0)
    }

    func testManyColoursAreQuantisedClosely() throws {
        // 4,096 colours in smooth ramps: median cut to 256 keeps every pixel near its colour.
        var pixels = PixelBuffer(width: 64, height: 64)
        for y in 0..<64 { for x in 0..<64 { pixels[x, y] = RGBA(r: UInt8(x * 4), g: UInt8(y * 4), b: UInt8((x + y) * 2)) } }
        let decoded = try coder.decode(coder.encode(Image(pixels: pixels), as: .gif, options: ImageEncodeOptions()),
                                       options: ImageDecodeOptions()).pixels
        let difference = PixelDifference(decoded, pixels)
        XCTAssertTrue(difference.isWithin(maximum: 24, mean: 4), "quantisation error \(difference)")
        let colours = Set(stride(from: 0, to: decoded.bytes.count, by: 4).map { decoded.bytes[$0..<$0 + 3].map { $0 } })
        XCTAssertLessThanOrEqual(colours.count, 256)
        XCTAssertGreaterThan(colours.count, 200, "the palette is used")
    }

    func testAnimationKeepsFramesLoopCountAndDelays() throws {
        let animation = AnimationSample.make()
        let data = try coder.encode(animation, as: .gif, options: ImageEncodeOptions())
        let decoded = try coder.decode(data, options: ImageDecodeOptions())
        XCTAssertEqual(decoded.frames.count, 3)
        XCTAssertEqual(decoded.loopCount, 3)
        XCTAssertEqual(decoded.durations, [0.1, 0.25, 0.5])
        for (index, frame) in decoded.frames.enumerated() {
            assertSamePixels(frame.pixels, animation.frames[index].pixels, "frame \(index)")
        }
        let reader = try coder.makeFrameReader(for: data, options: ImageDecodeOptions())
        XCTAssertEqual((0..<3).map { reader.duration(at: $0) }, [0.1, 0.25, 0.5])

        var forever = animation
        forever.loopCount = 0
        XCTAssertEqual(try coder.decode(coder.encode(forever, as: .gif, options: ImageEncodeOptions()),
                                        options: ImageDecodeOptions()).loopCount, 0)
        let first = try coder.decode(coder.encode(animation, as: .gif, options: ImageEncodeOptions(firstFrameOnly: true)),
                                     options: ImageDecodeOptions())
        XCTAssertEqual(first.frames.count, 1)
        assertSamePixels(first.pixels, animation.frames[0].pixels, "first frame only")
    }

    func testRefusesWhatGIFCannotHold() {
        let frames = [ImageFrame(pixels: PixelBuffer(width: 2, height: 2)), ImageFrame(pixels: PixelBuffer(width: 3, height: 2))]
        XCTAssertThrowsError(try coder.encode(Image(frames: frames), as: .gif, options: ImageEncodeOptions())) {
            guard case .encodingFailed(.gif, _) = $0 as? ImageCodingError else { return XCTFail("\($0)") }
        }
        XCTAssertThrowsError(try coder.encode(Image(pixels: PixelBuffer(width: 65536, height: 1)), as: .gif,
                                              options: ImageEncodeOptions())) {
            guard case .encodingFailed(.gif, _) = $0 as? ImageCodingError else { return XCTFail("\($0)") }
        }
        XCTAssertThrowsError(try coder.encode(Image(pixels: PixelBuffer(width: 0, height: 0)), as: .gif,
                                              options: ImageEncodeOptions())) {
            guard case .encodingFailed(.gif, _) = $0 as? ImageCodingError else { return XCTFail("\($0)") }
        }
    }
}

/// A three-frame animation with few colours and transparency, shown 0.1, 0.25 and 0.5 s, played
/// three times: every encoder can hold it exactly.
enum AnimationSample {
    static func make() -> Image {
        let frames = (0..<3).map { index in
            var pixels = PixelBuffer(width: 40, height: 30)
            for y in 0..<30 {
                for x in 0..<(10 * (index + 2)) {
                    pixels[x, y] = y < 15 ? RGBA(r: UInt8(80 * index), g: 200, b: 50) : RGBA(r: 250, g: UInt8(60 * index), b: 90)
                }
            }
            return ImageFrame(pixels: pixels, duration: [0.1, 0.25, 0.5][index])
        }
        return Image(frames: frames, loopCount: 3)
    }
}
