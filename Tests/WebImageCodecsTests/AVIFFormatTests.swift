@testable import WebImageCodecs
import Foundation
import WebImage
import WebImageTestSupport
import XCTest

/// `AVIFCoder` decoding the files of `Tests/Fixtures/formats/avif` (made with avifenc by
/// scripts/make-format-fixtures.py): depth, alpha, `irot`/`imir` and sequences.
final class AVIFFormatTests: XCTestCase {
    private let coder = AVIFCoder()

    func testAnEightBitStillDecodesCloseToItsSource() throws {
        let image = try FormatFixtures.decode("avif/quadrants.avif", with: coder)
        XCTAssertEqual(image.format, .avif)
        XCTAssertEqual(image.orientation, .up)
        FormatFixtures.assertNear(image.pixels, try FormatFixtures.source("quadrants.png"), maximum: 80, mean: 3, "AVIF q10")
        FormatFixtures.assertQuadrants(image.pixels, [FormatFixtures.red, FormatFixtures.green, FormatFixtures.blue, FormatFixtures.white], "upright")
    }

    func testAlphaIsDecoded() throws {
        let image = try FormatFixtures.decode("avif/alpha.avif", with: coder)
        XCTAssertTrue(image.pixels.hasTransparency)
        let source = try FormatFixtures.source("alpha.png")
        for x in [0, 20, 40, 63] {
            XCTAssertEqual(Double(image.pixels[x, 10].a), Double(source[x, 10].a), accuracy: 6, "alpha at x = \(x)")
        }
    }

    func testTenBitSamplesAreRoundedToEight() throws {
        let image = try FormatFixtures.decode("avif/gradient10.avif", with: coder)
        let expected = FormatFixtures.rounded(FormatFixtures.gradient16(), width: 64, height: 48)
        // Quantizer 4 at 4:4:4: close to lossless, so rounding (not truncating) keeps the mean low.
        FormatFixtures.assertNear(image.pixels, expected, maximum: 12, mean: 0.9, "10-bit AVIF against its 16-bit source")
    }

    func testIrotAndImirBecomeTheOrientationAndAreApplied() throws {
        let image = try FormatFixtures.decode("avif/irot1_imir0.avif", with: coder)
        XCTAssertEqual(image.orientation, .leftMirrored, "irot 1 then imir 0 is EXIF orientation 5")
        XCTAssertEqual(PixelSize(width: image.pixelWidth, height: image.pixelHeight), PixelSize(width: 48, height: 64))
        // Orientation 5 transposes: the quadrants' green and blue change places.
        FormatFixtures.assertQuadrants(image.pixels, [FormatFixtures.red, FormatFixtures.blue, FormatFixtures.green, FormatFixtures.white], "transposed")
    }

    func testASequenceKeepsItsFramesAndDurations() throws {
        FormatFixtures.assertTheAnimation(try FormatFixtures.decode("avif/animated.avif", with: coder), tolerance: 8)
        let colours = FormatFixtures.frameColours
        let reader = try coder.makeFrameReader(for: Fixtures.formatData("avif/animated.avif"), options: ImageDecodeOptions())
        assertClose(try reader.frame(at: 2)[5, 5], colours[2], tolerance: 8, "the last frame first")
        assertClose(try reader.frame(at: 0)[5, 5], colours[0], tolerance: 8, "then the first")
        XCTAssertEqual(try ImageCoders(WebImageCodecs.defaultCoders).header(of: Fixtures.formatData("avif/animated.avif")).frameCount, 3)
    }

    func testTheColourSpaceIsReadForColourManagement() throws {
        let reader = try AVIFFrameReader(data: Fixtures.formatData("avif/quadrants.avif"), options: ImageDecodeOptions())
        XCTAssertNil(reader.colorSpace.iccProfile)
        XCTAssertNotNil(reader.colorSpace.codePoints)
        let corpus = try Fixtures.requireFullCorpus(for: "the ICC profile of color/avif/prophoto_rgb.avif")
        let prophoto = try AVIFFrameReader(data: Fixtures.data(corpus.root.appendingPathComponent("color/avif/prophoto_rgb.avif")),
                                           options: ImageDecodeOptions())
        let profile = try XCTUnwrap(prophoto.colorSpace.iccProfile)
        XCTAssertEqual(Array(profile[36..<40]), Array("acsp".utf8), "an ICC profile's signature")
    }
}
