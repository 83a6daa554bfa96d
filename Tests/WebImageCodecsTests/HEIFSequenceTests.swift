@testable import WebImageCodecs
import Foundation
import WebImage
import WebImageTestSupport
import XCTest

/// HEIF image sequences (`msf1`), read from the `moov` box and decoded by libde265, on the
/// files scripts/make-format-fixtures.py writes with ffmpeg and libx265.
final class HEIFSequenceTests: XCTestCase {
    private let coder = HEIFCoder()

    func testASequenceDecodesAsAnAnimationWithTheSampleTablesDurations() throws {
        let image = try FormatFixtures.decode("heic/sequence.heic", with: coder)
        XCTAssertEqual(image.format, .heif)
        XCTAssertEqual(image.frames.count, 3)
        XCTAssertEqual(image.pixelWidth, 32)
        XCTAssertEqual(image.pixelHeight, 24)
        XCTAssertEqual(image.durations.map { ($0 * 1000).rounded() }, [120, 200, 40])
        XCTAssertEqual(image.loopCount, 0)
        for (frame, colour) in zip(image.frames, FormatFixtures.frameColours) {
            assertClose(frame.pixels[16, 12], colour, tolerance: 6, "frame colour")
        }
    }

    func testFramesMatchFFmpegsDecodeInDisplayOrder() throws {
        // B-frames: decoding order is not display order, and 100 × 100 is coded as 104 × 104, cropped.
        let image = try FormatFixtures.decode("heic/sequence_photo.heic", with: coder)
        XCTAssertEqual(image.frames.count, 6)
        XCTAssertEqual(image.pixelWidth, 100)
        XCTAssertEqual(image.pixelHeight, 100)
        let references = try [0, 3, 5].map { index in
            (index, try PNGCoder().decode(Fixtures.formatData("heic/sequence_photo_ref/f\(index).png"), options: ImageDecodeOptions()).pixels)
        }
        for (index, reference) in references {
            // ffmpeg upsamples chroma with its own filter (libavif's libyuv here): edges differ.
            FormatFixtures.assertNear(image.frames[index].pixels, reference, maximum: 48, mean: 1.5, "frame \(index)")
        }
        let (_, last) = references[2]
        XCTAssertGreaterThan(PixelDifference(image.frames[0].pixels, last).mean, 3 * PixelDifference(image.frames[5].pixels, last).mean,
                             "frame 0 is not frame 5: the comparison tells frames apart")
    }

    func testTheFirstFrameOnlyGivesOneFrame() throws {
        var options = ImageDecodeOptions()
        options.firstFrameOnly = true
        let image = try FormatFixtures.decode("heic/sequence.heic", with: coder, options)
        XCTAssertEqual(image.frames.count, 1)
        assertClose(image.pixels[16, 12], FormatFixtures.frameColours[0], tolerance: 6, "the first frame")
    }

    func testAFileWithAStillAndASequenceShowsTheSequenceAndItsStillForTheFirstFrameOnly() throws {
        let animated = try FormatFixtures.decode("heic/still_and_sequence.heic", with: coder)
        XCTAssertEqual(animated.frames.count, 3)
        XCTAssertEqual(animated.pixelWidth, 32)
        var options = ImageDecodeOptions()
        options.firstFrameOnly = true
        let still = try FormatFixtures.decode("heic/still_and_sequence.heic", with: coder, options)
        XCTAssertEqual(still.frames.count, 1)
        XCTAssertEqual(still.pixelWidth, 64, "the primary item (quadrants.heic), through libheif")
        FormatFixtures.assertQuadrants(still.pixels, [FormatFixtures.red, FormatFixtures.green, FormatFixtures.blue, FormatFixtures.white], "the still")
    }

    func testTheHeaderCountsTheFramesWithoutDecoding() throws {
        let header = try coder.readHeader(Fixtures.formatData("heic/sequence_photo.heic"))
        XCTAssertEqual(header.frameCount, 6)
        XCTAssertEqual(header.pixelSize, PixelSize(width: 100, height: 100))
        XCTAssertEqual(header.durations.map { ($0 * 1000).rounded() }, [90, 90, 90, 90, 90, 90])
    }

    func testFramesCanBeReadInAnyOrder() throws {
        let data = try Fixtures.formatData("heic/sequence_photo.heic")
        let whole = try coder.decode(data, options: ImageDecodeOptions())
        let reader = try coder.makeFrameReader(for: data, options: ImageDecodeOptions())
        for index in [4, 5, 1, 1, 0, 3] {
            XCTAssertEqual(try reader.frame(at: index), whole.frames[index].pixels, "frame \(index)")
        }
        XCTAssertThrowsError(try reader.frame(at: 6))
        let still = try coder.makeFrameReader(for: Fixtures.formatData("heic/quadrants.heic"), options: ImageDecodeOptions())
        XCTAssertEqual(still.frameCount, 1, "a still file reads as one frame")
    }

    func testThePixelLimitAppliesBeforeDecoding() throws {
        let data = try Fixtures.formatData("heic/sequence_photo.heic")
        XCTAssertThrowsError(try coder.decode(data, options: ImageDecodeOptions(maxPixels: 5_000))) {
            XCTAssertEqual($0 as? ImageCodingError, .tooManyPixels(width: 100, height: 100, limit: 5_000))
        }
    }

    func testAStreamLargerThanItsContainerIsRefusedBeforeLibde265AllocatesIt() throws {
        var bytes = [UInt8](try Fixtures.formatData("heic/sequence_photo.heic"))
        // The sample entry's width and height (100 × 100) become 8 × 8; the SPS still says 104 × 104.
        let entry = try XCTUnwrap(bytes.firstRange(of: Array("hvc1".utf8))).lowerBound - 4
        bytes[entry + 8 + 24 ..< entry + 8 + 28] = [0, 8, 0, 8]
        XCTAssertThrowsError(try coder.decode(Data(bytes), options: ImageDecodeOptions())) {
            guard case .corrupt(_, let message)? = $0 as? ImageCodingError else { return XCTFail("\($0)") }
            XCTAssertTrue(message.contains("pictures are 104x104"), message)
        }
    }

    func testDamagedSequencesFailWithATypedErrorOrDecode() throws {
        let data = try Fixtures.formatData("heic/sequence_photo.heic")
        var generator = SeededRandom(seed: 7)
        for trial in 0..<60 {
            var bytes = [UInt8](data)
            for _ in 0..<8 {
                bytes[Int(generator.next() % UInt64(bytes.count))] = generator.byte()
            }
            do {
                let image = try coder.decode(Data(bytes), options: ImageDecodeOptions())
                XCTAssertGreaterThan(image.frames.count, 0, "trial \(trial)")
            } catch {
                XCTAssertNotNil(error as? ImageCodingError, "trial \(trial): \(error)")
            }
        }
        for cut in stride(from: 0, to: data.count, by: 397) {
            XCTAssertThrowsError(try coder.decode(data.prefix(cut), options: ImageDecodeOptions())) {
                XCTAssertNotNil($0 as? ImageCodingError, "cut at \(cut): \($0)")
            }
        }
    }
}
