@testable import WebImageCodecs
import Foundation
import WebImage
import WebImageTestSupport
import XCTest

/// `JXLCoder` decoding the files of `Tests/Fixtures/formats/jxl` (made with cjxl by
/// scripts/make-format-fixtures.py); the shared corpus's are checked against djxl by
/// `CorpusConformanceTests`.
final class JXLCoderTests: XCTestCase {
    private let coder = JXLCoder()

    func testLosslessFilesDecodeExactly() throws {
        let data = try Fixtures.formatData("jxl/quadrants_lossless.jxl")
        XCTAssertTrue(coder.canDecode(data))
        let image = try coder.decode(data, options: ImageDecodeOptions())
        XCTAssertEqual(image.format, .jxl)
        XCTAssertEqual(image.frames.count, 1)
        XCTAssertEqual(image.loopCount, 1)
        assertSamePixels(image.pixels, try FormatFixtures.source("quadrants.png"), "lossless RGB")
        assertSamePixels(try FormatFixtures.decode("jxl/alpha_lossless.jxl", with: coder).pixels, try FormatFixtures.source("alpha.png"), "lossless RGBA")
    }

    func testSixteenBitSamplesAreRoundedToEight() throws {
        let expected = FormatFixtures.rounded(FormatFixtures.gradient16(), width: 64, height: 48)
        assertSamePixels(try FormatFixtures.decode("jxl/gradient16_lossless.jxl", with: coder).pixels, expected, "16-bit lossless, rounded")
    }

    func testALossyFileDecodesCloseToItsSource() throws {
        FormatFixtures.assertNear(try FormatFixtures.decode("jxl/quadrants_d1.jxl", with: coder).pixels, try FormatFixtures.source("quadrants.png"),
                                  maximum: 60, mean: 3, "distance 1")
    }

    func testTheCodestreamOrientationIsApplied() throws {
        let image = try FormatFixtures.decode("jxl/orientation6.jxl", with: coder)
        XCTAssertEqual(image.orientation, .up, "libjxl turned the pixels upright")
        // cjxl kept the JPEG's orientation 6; our JPEG decoder applies the same tag. libjxl's own
        // decode of the JPEG data differs from libjpeg-turbo's at edges (its chroma upsampling),
        // by little on average; a wrong orientation differs by tens.
        let jpeg = try JPEGCoder().decode(Fixtures.imageData("jpeg/pil_hopper_orientation_6.jpg"), options: ImageDecodeOptions())
        FormatFixtures.assertNear(image.pixels, jpeg.pixels, maximum: 24, mean: 1, "the transcoded JPEG against the JPEG")
        let header = try ImageCoders(WebImageCodecs.defaultCoders).header(of: Fixtures.formatData("jxl/orientation6.jxl"))
        XCTAssertEqual(header.orientation, .up)
        XCTAssertEqual(header.format, .jxl)
    }

    func testAnAnimationKeepsItsFramesDurationsAndLoop() throws {
        FormatFixtures.assertTheAnimation(try FormatFixtures.decode("jxl/animated.jxl", with: coder), tolerance: 0)
        let colours = FormatFixtures.frameColours
        let reader = try coder.makeFrameReader(for: Fixtures.formatData("jxl/animated.jxl"), options: ImageDecodeOptions())
        XCTAssertEqual(reader.frameCount, 3)
        for index in [2, 0, 1, 2] { XCTAssertEqual(try reader.frame(at: index)[3, 3], colours[index], "frame \(index), any order") }
        XCTAssertThrowsError(try reader.frame(at: 3)) { XCTAssertTrue($0 is ImageCodingError) }
        let first = try FormatFixtures.decode("jxl/animated.jxl", with: coder, ImageDecodeOptions(firstFrameOnly: true))
        XCTAssertEqual(first.frames.count, 1)
    }

    func testAThumbnailIsResampledToTheBox() throws {
        let image = try FormatFixtures.decode("jxl/quadrants_lossless.jxl", with: coder, ImageDecodeOptions(thumbnailPixelSize: PixelSize(32)))
        XCTAssertEqual(PixelSize(width: image.pixelWidth, height: image.pixelHeight), PixelSize(width: 32, height: 24))
    }

    func testTheColourProfileIsReadForColourManagement() throws {
        let reader = try JXLFrameReader(data: Fixtures.formatData("jxl/quadrants_d1.jxl"), options: ImageDecodeOptions())
        let srgb = try XCTUnwrap(reader.colorSpace.iccProfile, "libjxl describes its sRGB output as a profile")
        XCTAssertEqual(Array(srgb[36..<40]), Array("acsp".utf8))
        let corpus = try Fixtures.requireFullCorpus(for: "the ICC profile of color/jxl/adobergb1998_lossless.jxl")
        let adobe = try JXLFrameReader(data: Fixtures.data(corpus.root.appendingPathComponent("color/jxl/adobergb1998_lossless.jxl")),
                                       options: ImageDecodeOptions())
        XCTAssertNotEqual(try XCTUnwrap(adobe.colorSpace.iccProfile), srgb)
    }

    func testBadInputGivesTypedErrors() throws {
        XCTAssertThrowsError(try FormatFixtures.decode("jxl/quadrants_lossless.jxl", with: coder, ImageDecodeOptions(maxPixels: 1000))) { error in
            XCTAssertEqual(error as? ImageCodingError, .tooManyPixels(width: 64, height: 48, limit: 1000))
        }
        let data = try Fixtures.formatData("jxl/gradient16_lossless.jxl")
        for length in [2, 10, 100, data.count / 2, data.count - 1] {
            XCTAssertThrowsError(try coder.decode(data.prefix(length), options: ImageDecodeOptions()), "\(length) bytes") { error in
                XCTAssertEqual(error as? ImageCodingError, .truncated(.jxl), "\(length) bytes: \(error)")
            }
        }
        XCTAssertThrowsError(try coder.decode(Data(), options: ImageDecodeOptions())) { error in
            XCTAssertEqual(error as? ImageCodingError, .empty)
        }
        for position in stride(from: 2, to: min(data.count, 600), by: 7) {
            var damaged = data
            damaged[position] ^= 0xFF
            FormatFixtures.assertTypedFailureOrImage({ try coder.decode(damaged, options: ImageDecodeOptions()) }, "byte \(position)")
        }
    }
}
