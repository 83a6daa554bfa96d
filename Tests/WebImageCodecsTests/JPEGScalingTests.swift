import Foundation
import WebImage
import WebImageCodecs
import WebImageTestSupport
import XCTest

/// DCT-scaled thumbnails and partial (progressive) decoding.
final class JPEGScalingTests: XCTestCase {
    private let coder = JPEGCoder()

    /// A 256 px thumbnail of the 4032 x 3024 photo is decoded by libjpeg at 1/8 (504 x 378),
    /// then resampled to 256 x 192.
    func testThumbnailDecodesAtOneEighth() throws {
        let data = try Fixtures.twelveMegapixelPhoto()
        let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(256))
        XCTAssertEqual(try JPEGCoder.decodedSize(of: data, options: options), PixelSize(width: 504, height: 378))
        XCTAssertEqual(try JPEGCoder.decodedSize(of: data), PixelSize(width: 4032, height: 3024))
        let image = try coder.decode(data, options: options)
        XCTAssertEqual(PixelSize(width: image.pixelWidth, height: image.pixelHeight), PixelSize(width: 256, height: 192))
    }

    /// A size between two DCT scales streams libjpeg's rows into the resampler, decoded in draft
    /// mode as Pillow's `draft` does (chroma replicated, not interpolated; the fast IDCT): the
    /// result is the DCT-scaled decode resized, to within draft mode's few levels, for baseline
    /// and progressive files.
    func testThumbnailBetweenScalesIsTheScaledDecodeResized() throws {
        for name in ["testjfif_1024.jpg", "testjfif_1024.progressive.jpg"] {
            let data = try Fixtures.benchData(name)
            // 1024 x 768 → 300 x 225: decoded at 1/2 (512 x 384), then resampled.
            let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(300))
            XCTAssertEqual(try JPEGCoder.decodedSize(of: data, options: options), PixelSize(width: 512, height: 384))
            let half = try coder.decode(data, options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(512)))
            XCTAssertEqual(half.pixelWidth, 512, name)
            let thumbnail = try coder.decode(data, options: options)
            let difference = PixelDifference(thumbnail.pixels, Resampler.resize(half.pixels, to: PixelSize(width: 300, height: 225)))
            XCTAssertTrue(difference.isWithin(maximum: JPEGDraft.maximumDifference, mean: JPEGDraft.meanDifference),
                          "\(name): \(difference)")
        }
    }

    /// The pixel limit applies to the size decoded: 1 MP refuses the 12 MP photo but allows its
    /// thumbnail, which therefore never held the full-size pixels.
    func testPixelLimitAppliesToTheDecodedSize() throws {
        let data = try Fixtures.twelveMegapixelPhoto()
        XCTAssertThrowsError(try coder.decode(data, options: ImageDecodeOptions(maxPixels: 1_000_000))) {
            XCTAssertEqual($0 as? ImageCodingError, .tooManyPixels(width: 4032, height: 3024, limit: 1_000_000))
        }
        let thumbnail = try coder.decode(data, options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(300),
                                                                           maxPixels: 1_000_000))
        XCTAssertEqual(thumbnail.pixelWidth, 300)
        XCTAssertEqual(thumbnail.pixelHeight, 225)
    }

    /// The strongest reduction still covering the target: 1/4 for 800 px (1008 >= 800), 1/2 for
    /// 1200 px, none for a target larger than 1/2; the scale-down byte limit counts too.
    func testScaleChoice() throws {
        let data = try Fixtures.twelveMegapixelPhoto()
        func decoded(_ side: Int) throws -> PixelSize {
            try JPEGCoder.decodedSize(of: data, options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(side)))
        }
        XCTAssertEqual(try decoded(800), PixelSize(width: 1008, height: 756))
        XCTAssertEqual(try decoded(1200), PixelSize(width: 2016, height: 1512))
        XCTAssertEqual(try decoded(3000), PixelSize(width: 4032, height: 3024))
        // 800 kB of RGBA allows 200 000 pixels: 516 x 387, more than 1/8 gives.
        let limited = ImageDecodeOptions(scaleDownLimitBytes: 4 * 200_000)
        XCTAssertEqual(try JPEGCoder.decodedSize(of: data, options: limited), PixelSize(width: 1008, height: 756))
        let image = try coder.decode(data, options: limited)
        XCTAssertEqual(PixelSize(width: image.pixelWidth, height: image.pixelHeight), PixelSize(width: 516, height: 387))
    }

    /// The scale considers orientation: sd_TestJFIF (orientation 3, no swap) and a rotated hopper.
    func testThumbnailOfRotatedImage() throws {
        let data = try Fixtures.imageData("jpeg/pil_hopper_orientation_6.jpg")
        let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 64, height: 32), preserveAspectRatio: false)
        XCTAssertEqual(try JPEGCoder.decodedSize(of: data, options: options), PixelSize(width: 64, height: 64))
        let image = try coder.decode(data, options: options)
        XCTAssertEqual(PixelSize(width: image.pixelWidth, height: image.pixelHeight), PixelSize(width: 64, height: 32))
        let jfif = try coder.decode(try Fixtures.twelveMegapixelPhoto(),
                                    options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(256)))
        XCTAssertEqual(PixelSize(width: jfif.pixelWidth, height: jfif.pixelHeight), PixelSize(width: 256, height: 192))
    }

    /// Half of a progressive JPEG gives the full-size image from the scans that arrived:
    /// already close to the final image.
    func testPartialProgressive() throws {
        let data = try Fixtures.benchData("testjfif_256.progressive.jpg")
        let full = try coder.decode(data, options: ImageDecodeOptions())
        let partial = try XCTUnwrap(coder.decodePartial(data.prefix(data.count / 2), options: ImageDecodeOptions()))
        XCTAssertTrue(partial.isIncomplete)
        XCTAssertEqual(partial.pixelWidth, 256)
        XCTAssertEqual(partial.pixelHeight, 192)
        XCTAssertLessThan(PixelDifference(partial.pixels, full.pixels).mean, 10)
        let complete = try XCTUnwrap(coder.decodePartial(data, options: ImageDecodeOptions()))
        XCTAssertFalse(complete.isIncomplete)
        XCTAssertEqual(complete.pixels, full.pixels)
    }

    /// Half of a baseline JPEG gives its top rows exactly.
    func testPartialBaselineHasTheTopRows() throws {
        let data = try Fixtures.benchData("testjfif_256.jpg")
        let full = try coder.decode(data, options: ImageDecodeOptions())
        let partial = try XCTUnwrap(coder.decodePartial(data.prefix(data.count / 2), options: ImageDecodeOptions()))
        XCTAssertTrue(partial.isIncomplete)
        let rowBytes = full.pixels.bytesPerRow * 32
        XCTAssertEqual(partial.pixels.bytes.prefix(rowBytes), full.pixels.bytes.prefix(rowBytes))
        XCTAssertNotEqual(partial.pixels, full.pixels)
    }

    func testPartialWithoutHeaderIsNil() throws {
        let data = try Fixtures.benchData("testjfif_256.progressive.jpg")
        XCTAssertNil(coder.decodePartial(data.prefix(100), options: ImageDecodeOptions()))
    }
}
