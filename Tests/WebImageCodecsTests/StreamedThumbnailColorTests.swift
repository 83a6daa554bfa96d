import Foundation
@testable import WebImageCodecs
import WebImage
import WebImageTestSupport
import XCTest

/// Streamed thumbnails (PNG rows, JPEG rows between two DCT scales, handed to a
/// `ResamplingStream` a band at a time) are colour managed exactly as a whole decode is: each
/// band goes through the embedded profile before the resampler, so the thumbnail equals the
/// converted image resized, pixel for pixel. Files from the shared corpus's `color/` folder.
final class StreamedThumbnailColorTests: XCTestCase {
    private let coders = ImageCoders(WebImageCodecs.defaultCoders)
    private let preserve = ImageDecodeOptions(colorManagement: .preserve)

    private func colorData(_ path: String) throws -> Data {
        try Fixtures.requireFullCorpus(for: "streamed thumbnails of ICC files").images(in: "color").imageData(path)
    }

    /// A thumbnail box whose long side is 0.4 of the image's: never a DCT scale.
    private func box(for data: Data) throws -> PixelSize {
        let size = try coders.header(of: data).pixelSize
        return PixelSize(max(size.width, size.height) * 2 / 5)
    }

    /// Asserts the streamed thumbnail of `data` equals `whole` (the converted decode the stream
    /// starts from) resized, and differs from the same thumbnail with the profile ignored.
    /// Asserts that the thumbnail `options` ask for is `whole` (the image converted at full or
    /// DCT-scaled size) resized, to within `maximum` levels per channel and `mean` on average.
    private func assertColourManaged(_ path: String, data: Data, whole: PixelBuffer, options: ImageDecodeOptions,
                                     maximum: Int = 0, mean: Double = 0,
                                     file: StaticString = #filePath, line: UInt = #line) throws {
        let thumbnail = try coders.decode(data, options: options)
        let size = PixelSize(width: thumbnail.pixelWidth, height: thumbnail.pixelHeight)
        XCTAssertLessThan(size.width, whole.width, path, file: file, line: line)
        let difference = PixelDifference(thumbnail.pixels, Resampler.resize(whole, to: size))
        XCTAssertTrue(difference.isWithin(maximum: maximum, mean: mean), "\(path): not the converted image resized (\(difference))",
                      file: file, line: line)
        XCTAssertNil(thumbnail.colorProfile, "\(path): converted pixels carry no profile", file: file, line: line)
        var kept = options
        kept.colorManagement = .preserve
        let stored = try coders.decode(data, options: kept)
        if !path.contains("cmyk") {  // CMYK is converted even when kept (RGBA cannot hold it)
            XCTAssertNotEqual(stored.pixels, thumbnail.pixels, "\(path): the profile makes no difference",
                              file: file, line: line)
            XCTAssertNotNil(stored.colorProfile, "\(path): kept pixels carry their profile", file: file, line: line)
        }
    }

    func testStreamedPNGThumbnailsAreConvertedThroughTheirICCProfile() throws {
        for path in ["png/prophoto_rgb.png", "png/widegamut_rgba.png", "png/swapped_red_green_rgba.png"] {
            let data = try colorData(path)
            let options = ImageDecodeOptions(thumbnailPixelSize: try box(for: data))
            // The reader takes the streaming path for these files (nil would mean a whole decode).
            let reader = try PNGFrameReader(data: data, options: options)
            XCTAssertNotNil(try reader.decodeShrunkStill(options: options), path)
            let whole = try coders.decode(data).pixels
            try assertColourManaged(path, data: data, whole: whole, options: options)
        }
    }

    func testStreamedJPEGThumbnailsAreConvertedThroughTheirICCProfile() throws {
        for path in ["jpeg/adobergb1998.jpg", "jpeg/swapped_red_green.jpg", "jpeg/gray_cie_l.jpg", "jpeg/cmyk_fogra39.jpg"] {
            let data = try colorData(path)
            let options = ImageDecodeOptions(thumbnailPixelSize: try box(for: data))
            // Decoded at a DCT scale larger than the thumbnail, then streamed into the resampler.
            let scaled = try JPEGCoder.decodedSize(of: data, options: options)
            let whole = try coders.decode(data, options: ImageDecodeOptions(thumbnailPixelSize: scaled))
            XCTAssertEqual(PixelSize(width: whole.pixelWidth, height: whole.pixelHeight), scaled, path)
            // Streamed in draft mode (see JPEGDraft), so within its few levels.
            try assertColourManaged(path, data: data, whole: whole.pixels, options: options,
                                    maximum: JPEGDraft.maximumDifference, mean: JPEGDraft.meanDifference)
        }
    }

    /// With `.preserve`, a streamed PNG thumbnail keeps the stored colours and names the profile.
    func testStreamedThumbnailKeepsTheProfileWhenAsked() throws {
        let data = try colorData("png/prophoto_rgb.png")
        var options = preserve
        options.thumbnailPixelSize = try box(for: data)
        let thumbnail = try coders.decode(data, options: options)
        let stored = try coders.decode(data, options: preserve)
        XCTAssertEqual(thumbnail.colorProfile, stored.colorProfile)
        XCTAssertNotNil(thumbnail.colorProfile)
        XCTAssertEqual(thumbnail.pixels, Resampler.resize(stored.pixels, to: PixelSize(width: thumbnail.pixelWidth,
                                                                                    height: thumbnail.pixelHeight)))
    }
}
