import Foundation
@testable import WebImageCodecs
import WebImage
import WebImageTestSupport
import XCTest

/// Streamed thumbnails (PNG rows, JPEG rows between two DCT scales, handed to a
/// `ResamplingStream` a band at a time) are colour managed as libvips's thumbnail is: RGB and
/// grey are resampled in their stored colours and the result goes through the embedded
/// profile, so the thumbnail equals the stored image resized, then converted; CMYK is converted
/// band by band before the resampler, since RGBA cannot hold it. Files from the shared corpus's
/// `color/` folder.
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

    /// Asserts that the thumbnail `options` ask for of `data` is `whole` (the image decoded at
    /// full or DCT-scaled size, in stored colours unless CMYK) resized, then converted through
    /// its profile unless CMYK, to within `maximum` levels per channel and `mean` on average;
    /// and that it differs from the same thumbnail with the profile ignored.
    private func assertColourManaged(_ path: String, data: Data, whole: Image, options: ImageDecodeOptions,
                                     maximum: Int = 0, mean: Double = 0,
                                     file: StaticString = #filePath, line: UInt = #line) throws {
        let thumbnail = try coders.decode(data, options: options)
        let size = PixelSize(width: thumbnail.pixelWidth, height: thumbnail.pixelHeight)
        XCTAssertLessThan(size.width, whole.pixelWidth, path, file: file, line: line)
        var expected = Resampler.resize(whole.pixels, to: size)
        if let profile = whole.colorProfile {
            try ColorConversion.toSRGB(&expected, from: profile, samples: profile.colorSpace == .gray ? .gray : .rgb)
        }
        let difference = PixelDifference(thumbnail.pixels, expected)
        XCTAssertTrue(difference.isWithin(maximum: maximum, mean: mean), "\(path): not the image resized, then converted (\(difference))",
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
            let whole = try coders.decode(data, options: preserve)
            XCTAssertNotNil(whole.colorProfile, path)
            try assertColourManaged(path, data: data, whole: whole, options: options)
        }
    }

    func testStreamedJPEGThumbnailsAreConvertedThroughTheirICCProfile() throws {
        for path in ["jpeg/adobergb1998.jpg", "jpeg/swapped_red_green.jpg", "jpeg/gray_cie_l.jpg", "jpeg/cmyk_fogra39.jpg"] {
            let data = try colorData(path)
            let options = ImageDecodeOptions(thumbnailPixelSize: try box(for: data))
            // Decoded at a DCT scale larger than the thumbnail, then streamed into the resampler.
            let scaled = try JPEGCoder.decodedSize(of: data, options: options)
            var wholeOptions = ImageDecodeOptions(thumbnailPixelSize: scaled)
            if !path.contains("cmyk") { wholeOptions.colorManagement = .preserve }
            let whole = try coders.decode(data, options: wholeOptions)
            XCTAssertEqual(PixelSize(width: whole.pixelWidth, height: whole.pixelHeight), scaled, path)
            // Streamed in draft mode (see JPEGDraft), so within its few levels.
            try assertColourManaged(path, data: data, whole: whole, options: options,
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
