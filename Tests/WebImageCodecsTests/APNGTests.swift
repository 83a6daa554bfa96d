import Foundation
import XCTest
import WebImage
import WebImageTestSupport
@testable import WebImageCodecs

final class APNGTests: XCTestCase {
    private let coder = PNGCoder()

    func testFirstAndLastFramesMatchPillow() throws {
        let names = ["apng_blend_op_over.png", "apng_delay.png", "apng_dispose_op_background.png",
                     "apng_dispose_op_none.png", "apng_dispose_op_previous.png", "apng_mode_palette_alpha.png",
                     "apng_num_plays.png", "sd_TestImageLarge.png", "sd_TestImageAnimated.apng"]
        for name in names {
            let image = try coder.decode(Fixtures.imageData("png/" + name), options: ImageDecodeOptions())
            XCTAssertGreaterThan(image.frames.count, 1, name)
            assertSamePixels(image.frames[0].pixels, try PNGFixtures.reference(name, "f0"), "\(name) frame 0")
            assertSamePixels(image.frames.last!.pixels, try PNGFixtures.reference(name, "last"), "\(name) last frame")
        }
    }

    func testFramesDurationsAndLoops() throws {
        // The default image is not part of this animation: it is frame 0, the 4 fcTL frames follow.
        let delay = try coder.decode(Fixtures.imageData("png/apng_delay.png"), options: ImageDecodeOptions())
        XCTAssertEqual(delay.frames.count, 5)
        XCTAssertEqual(Array(delay.durations.dropFirst()), [0.5, 1, 0.5, 1])
        XCTAssertEqual(delay.loopCount, 0)

        let over = try coder.decode(Fixtures.imageData("png/apng_blend_op_over.png"), options: ImageDecodeOptions())
        XCTAssertEqual(over.frames.count, 3)
        XCTAssertEqual(over.loopCount, 1)
        XCTAssertEqual(over.durations[1], 0.1, accuracy: 1e-9)

        let animated = try coder.decode(Fixtures.imageData("png/sd_TestImageAnimated.apng"), options: ImageDecodeOptions())
        XCTAssertEqual(animated.frames.count, 101)
        XCTAssertEqual(animated.loopCount, 0)
        XCTAssertTrue(animated.durations.allSatisfy { abs($0 - 0.03) < 1e-9 })

        let large = try coder.decode(Fixtures.imageData("png/sd_TestImageLarge.png"), options: ImageDecodeOptions())
        XCTAssertEqual(large.frames.count, 4)
        XCTAssertEqual(PixelSize(width: large.pixelWidth, height: large.pixelHeight), PixelSize(width: 1275, height: 720))

        let single = try coder.decode(Fixtures.imageData("png/apng_single_frame.png"), options: ImageDecodeOptions())
        XCTAssertEqual(single.frames.count, 1)
        assertSamePixels(single.pixels, try PNGFixtures.reference("apng_single_frame.png", "f0"), "single frame")
    }

    func testFirstFrameOnly() throws {
        let image = try coder.decode(Fixtures.imageData("png/sd_TestImageAnimated.apng"), options: ImageDecodeOptions(firstFrameOnly: true))
        XCTAssertEqual(image.frames.count, 1)
        assertSamePixels(image.pixels, try PNGFixtures.reference("sd_TestImageAnimated.apng", "f0"), "frame 0")
    }

    func testFramesCanBeReadInAnyOrder() throws {
        let data = try Fixtures.imageData("png/apng_dispose_op_previous.png")
        let sequential = try coder.decode(data, options: ImageDecodeOptions()).frames.map(\.pixels)
        let reader = try coder.makeFrameReader(for: data, options: ImageDecodeOptions())
        XCTAssertEqual(reader.frameCount, 4)
        XCTAssertEqual(reader.canvasSize, PixelSize(width: 128, height: 64))
        for index in [3, 1, 1, 0, 2, 3] {
            XCTAssertEqual(try reader.frame(at: index), sequential[index], "frame \(index)")
        }
        XCTAssertThrowsError(try reader.frame(at: 4)) { XCTAssertNotNil($0 as? ImageCodingError) }
        XCTAssertThrowsError(try reader.frame(at: -1)) { XCTAssertNotNil($0 as? ImageCodingError) }
    }

    func testBrokenAnimationFallsBackToTheDefaultImage() throws {
        // Move the first fcTL region of apng_dispose_op_none.png outside the canvas.
        let bytes = [UInt8](try Fixtures.imageData("png/apng_dispose_op_none.png"))
        let control = try bytes.withUnsafeBytes { try PNGChunkList($0) }.chunks.first { $0.type == .fcTL }!
        let broken = PNGFixtures.fixingCRC(PNGFixtures.patching(bytes, uint32: 500, at: control.data.lowerBound + 12),
                                           chunkAt: control.start)
        let image = try coder.decode(Data(broken), options: ImageDecodeOptions())
        XCTAssertEqual(image.frames.count, 1)
        assertSamePixels(image.pixels, try PNGFixtures.reference("apng_dispose_op_none.png", "f0"), "default image")
    }

    func testTruncatedAnimationIsTyped() throws {
        let bytes = [UInt8](try Fixtures.imageData("png/sd_TestImageAnimated.apng"))
        for step in 1..<100 {
            let cut = bytes.count * step / 100
            XCTAssertThrowsError(try coder.decode(Data(bytes.prefix(cut)), options: ImageDecodeOptions())) {
                XCTAssertEqual($0 as? ImageCodingError, .truncated(.png), "cut at \(cut)")
            }
        }
    }

    func testAnimationRoundTrip() throws {
        let image = try coder.decode(Fixtures.imageData("png/apng_dispose_op_previous.png"), options: ImageDecodeOptions())
        let encoded = try coder.encode(image, as: .png, options: ImageEncodeOptions())
        let decoded = try coder.decode(encoded, options: ImageDecodeOptions())
        XCTAssertEqual(decoded.frames.count, image.frames.count)
        XCTAssertEqual(decoded.loopCount, image.loopCount)
        XCTAssertEqual(decoded.durations, image.durations)
        for (a, b) in zip(decoded.frames, image.frames) { assertSamePixels(a.pixels, b.pixels, "frame") }

        let still = try coder.encode(image, as: .png, options: ImageEncodeOptions(firstFrameOnly: true))
        XCTAssertEqual(try coder.decode(still, options: ImageDecodeOptions()).frames.count, 1)
    }
}
