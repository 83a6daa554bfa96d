@testable import WebImageCodecs
import Foundation
import WebImage
import WebImageTestSupport
import XCTest

/// `HEIFCoder` on the files of `Tests/Fixtures/formats/heic` (made by
/// scripts/make-format-fixtures.py); the shared corpus's HEIC files are checked against
/// pillow_heif by `CorpusConformanceTests`.
final class HEIFCoderTests: XCTestCase {
    private let coder = HEIFCoder()

    func testAnEightBitStillDecodesCloseToItsSource() throws {
        let data = try Fixtures.formatData("heic/quadrants.heic")
        XCTAssertTrue(coder.canDecode(data))
        let image = try coder.decode(data, options: ImageDecodeOptions())
        XCTAssertEqual(image.format, .heic)
        XCTAssertEqual(image.orientation, .up)
        XCTAssertEqual(image.frames.count, 1)
        XCTAssertFalse(image.pixels.hasTransparency)
        FormatFixtures.assertNear(image.pixels, try FormatFixtures.source("quadrants.png"), maximum: 80, mean: 3, "q90 HEIC")
        FormatFixtures.assertQuadrants(image.pixels, [FormatFixtures.red, FormatFixtures.green, FormatFixtures.blue, FormatFixtures.white], "upright")
    }

    func testAlphaComesFromTheAuxiliaryImage() throws {
        let image = try FormatFixtures.decode("heic/alpha.heic", with: coder)
        let source = try FormatFixtures.source("alpha.png")
        XCTAssertTrue(image.pixels.hasTransparency)
        XCTAssertEqual(Double(image.pixels[0, 10].a), 255, accuracy: 3)
        XCTAssertEqual(Double(image.pixels[63, 10].a), 0, accuracy: 3)
        XCTAssertEqual(Double(image.pixels[32, 10].a), Double(source[32, 10].a), accuracy: 4)
    }

    func testTenBitSamplesAreRoundedToEight() throws {
        let image = try FormatFixtures.decode("heic/gradient10.heic", with: coder)
        let expected = FormatFixtures.rounded(FormatFixtures.gradient16(), width: 64, height: 48)
        // Lossy at q90 on smooth ramps: the encoder's loss is small; truncating instead of rounding adds ~0.4.
        FormatFixtures.assertNear(image.pixels, expected, maximum: 6, mean: 0.9, "10-bit HEIC against its 16-bit source")
    }

    func testIrotIsAppliedOnceAndTheEXIFOrientationNotAgain() throws {
        let data = try Fixtures.formatData("heic/irot_exif6.heic")
        let image = try coder.decode(data, options: ImageDecodeOptions())
        XCTAssertEqual(image.pixelWidth, 48)
        XCTAssertEqual(image.pixelHeight, 64)
        XCTAssertEqual(image.orientation, .up, "libheif applied the rotation: nothing is left to apply")
        // 90° clockwise: blue comes to the top left; twice (180°) it would be white.
        FormatFixtures.assertQuadrants(image.pixels, [FormatFixtures.blue, FormatFixtures.red, FormatFixtures.white, FormatFixtures.green], "rotated once")
        let header = try coder.readHeader(data)
        XCTAssertEqual(header.pixelSize, PixelSize(width: 48, height: 64))
        XCTAssertEqual(header.orientation, .up)
        XCTAssertEqual(try ImageCoders(WebImageCodecs.defaultCoders).header(of: data), header)
    }

    func testASmallThumbnailComesFromTheThumbnailItem() throws {
        // The file's 16x12 thumbnail item is flat magenta; the image is the quadrants.
        let small = try FormatFixtures.decode("heic/thumbnail_differs.heic", with: coder, ImageDecodeOptions(thumbnailPixelSize: PixelSize(16)))
        XCTAssertEqual(PixelSize(width: small.pixelWidth, height: small.pixelHeight), PixelSize(width: 16, height: 12))
        assertClose(small.pixels[8, 6], RGBA(r: 220, g: 30, b: 220), tolerance: 8, "decoded from the thumbnail item")
        let larger = try FormatFixtures.decode("heic/thumbnail_differs.heic", with: coder, ImageDecodeOptions(thumbnailPixelSize: PixelSize(32)))
        XCTAssertEqual(PixelSize(width: larger.pixelWidth, height: larger.pixelHeight), PixelSize(width: 32, height: 24))
        FormatFixtures.assertQuadrants(larger.pixels, [FormatFixtures.red, FormatFixtures.green, FormatFixtures.blue, FormatFixtures.white],
                                       tolerance: 12, "a box the thumbnail does not cover: decoded from the image")
        let full = try FormatFixtures.decode("heic/thumbnail_differs.heic", with: coder)
        XCTAssertEqual(full.pixelWidth, 64)
        FormatFixtures.assertQuadrants(full.pixels, [FormatFixtures.red, FormatFixtures.green, FormatFixtures.blue, FormatFixtures.white], "full size")
    }

    /// ``ImageDecodeOptions/embeddedThumbnail``: the thumbnail item (flat magenta) stands for the
    /// image whatever the size asked, in HEIC and in AVIF (read through libheif); a file without
    /// one decodes its main image.
    func testAnEmbeddedThumbnailStandsForTheImageWhenAsked() throws {
        var options = ImageDecodeOptions()
        options.embeddedThumbnail = true
        for (path, decoder) in [("heic/thumbnail_differs.heic", coder as any ImageCoder), ("avif/thumbnail_differs.avif", AVIFCoder())] {
            let thumbnail = try FormatFixtures.decode(path, with: decoder, options)
            XCTAssertEqual(thumbnail.pixels.size, PixelSize(width: 16, height: 12), path)
            assertClose(thumbnail.pixels[8, 6], RGBA(r: 220, g: 30, b: 220), tolerance: 8, path)
            var small = options
            small.thumbnailPixelSize = PixelSize(8)
            XCTAssertEqual(try FormatFixtures.decode(path, with: decoder, small).pixels.size, PixelSize(width: 8, height: 6), "\(path): sized as asked of it")
            let main = try FormatFixtures.decode(path, with: decoder)
            XCTAssertEqual(main.pixels.size, PixelSize(width: 64, height: 48), "\(path): not unless asked")
        }
        let plain = try FormatFixtures.decode("heic/quadrants.heic", with: coder, options)
        XCTAssertEqual(plain.pixelWidth, 64, "no thumbnail item: the main image")
        XCTAssertEqual(try FormatFixtures.decode("avif/quadrants.avif", with: AVIFCoder(), options).pixelWidth, 64)
    }

    func testThePixelLimitIsCheckedBeforeDecoding() throws {
        XCTAssertThrowsError(try FormatFixtures.decode("heic/quadrants.heic", with: coder, ImageDecodeOptions(maxPixels: 1000))) { error in
            XCTAssertEqual(error as? ImageCodingError, .tooManyPixels(width: 64, height: 48, limit: 1000))
        }
    }

    func testTheColourSpaceIsReadForColourManagement() throws {
        let file = try HEIFFile(data: Fixtures.formatData("heic/quadrants.heic"), format: .heic, options: ImageDecodeOptions())
        XCTAssertEqual(file.colorSpace, .unspecified, "heif-enc 1.15 writes no colr box")
        let corpus = try Fixtures.requireFullCorpus(for: "the colour boxes of formats/heic and color/heic")
        let nclx = try HEIFFile(data: Fixtures.data(corpus.root.appendingPathComponent("formats/heic/photo_8bit_420.heic")),
                                format: .heic, options: ImageDecodeOptions())
        XCTAssertEqual(nclx.colorSpace.codePoints?.primaries, 1, "pillow_heif's nclx: BT.709 primaries")
        let p3 = try HEIFFile(data: Fixtures.data(corpus.root.appendingPathComponent("color/heic/displayp3.heic")),
                              format: .heic, options: ImageDecodeOptions())
        let profile = try XCTUnwrap(p3.colorSpace.iccProfile)
        XCTAssertEqual(Array(profile[36..<40]), Array("acsp".utf8), "an ICC profile's signature")
    }

    func testTruncatedAndDamagedFilesGiveTypedErrors() throws {
        let data = try Fixtures.formatData("heic/alpha.heic")
        for length in [12, 40, 200, data.count / 2, data.count - 1] {
            XCTAssertThrowsError(try coder.decode(data.prefix(length), options: ImageDecodeOptions()), "\(length) bytes") { error in
                XCTAssertEqual(error as? ImageCodingError, .truncated(.heic), "\(length) bytes: \(error)")
            }
        }
        XCTAssertThrowsError(try coder.decode(Data(), options: ImageDecodeOptions())) { error in
            XCTAssertEqual(error as? ImageCodingError, .empty)
        }
        var random = SeededRandom(seed: 0x4E1C)
        for position in stride(from: 0x20, to: min(data.count, 0x300), by: 5) {
            var damaged = data
            damaged[position] ^= 0xFF
            FormatFixtures.assertTypedFailureOrImage({ try coder.decode(damaged, options: ImageDecodeOptions()) }, "byte \(position)")
        }
        let garbage = data.prefix(32) + random.bytes(4000)
        FormatFixtures.assertTypedFailureOrImage({ try coder.decode(garbage, options: ImageDecodeOptions()) }, "random payload")
        XCTAssertFalse(coder.canDecode(Data(random.bytes(100))))
    }

    func testAVIFIsLeftToTheAVIFCoder() throws {
        XCTAssertFalse(coder.canDecode(try Fixtures.formatData("avif/quadrants.avif")))
        XCTAssertFalse(coder.canEncode(.avif))
        XCTAssertFalse(coder.canEncode(.heif))
    }
}
