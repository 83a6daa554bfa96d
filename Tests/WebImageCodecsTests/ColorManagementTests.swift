import Foundation
@testable import WebImageCodecs
import WebImage
import WebImageTestSupport
import XCTest

/// Decoding converts pixels to sRGB through the embedded ICC profile (Tests/Fixtures/color,
/// from scripts/make-color-fixtures.py, against Pillow's ImageCms), or keeps them with
/// `.preserve`; a profile that cannot be used never fails a decode.
final class ColorManagementTests: XCTestCase {
    private let coders = ImageCoders(WebImageCodecs.defaultCoders)
    private let preserve = ImageDecodeOptions(colorManagement: .preserve)

    /// The fixtures README's tolerances: lossless, lossy, CMYK.
    private static let lossless = (maximum: 3, mean: 0.5), lossy = (maximum: 32, mean: 0.75), cmyk = (maximum: 16, mean: 1.0)

    private func decode(_ name: String, options: ImageDecodeOptions = ImageDecodeOptions()) throws -> Image {
        try coders.decode(Fixtures.colorData(name), options: options)
    }

    private func reference(_ name: String) throws -> PixelBuffer {
        try coders.decode(Fixtures.colorData("ref/\(name)"), options: preserve).pixels
    }

    private func profile(_ name: String) throws -> ColorProfile {
        try ColorProfile(iccData: Fixtures.colorData("profiles/\(name).icc"))
    }

    /// `jpeg` without its `ICC_PROFILE` APP2 segments: how a decoder that ignores them sees it.
    private func withoutProfile(_ jpeg: Data) -> Data {
        var bytes = [UInt8](jpeg), offset = 2
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF, bytes[offset + 1] != 0xDA {
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            if bytes[offset + 1] == 0xE2, bytes[(offset + 4)...].starts(with: Array("ICC_PROFILE".utf8)) {
                bytes.removeSubrange(offset ..< offset + 2 + length)
            } else {
                offset += 2 + length
            }
        }
        return Data(bytes)
    }

    /// Asserts `pixels` within `tolerance` of the reference, and that the same file decoded
    /// without its profile (as stored; for CMYK, without the profile's segments) is not: the
    /// comparison can fail.
    private func assertConverted(_ name: String, frame: Int = 0, reference: String, tolerance: (maximum: Int, mean: Double),
                                 file: StaticString = #filePath, line: UInt = #line) throws {
        let expected = try self.reference(reference)
        let converted = PixelDifference(try decode(name).frames[frame].pixels, expected)
        XCTAssertTrue(converted.isWithin(maximum: tolerance.maximum, mean: tolerance.mean),
                      "\(name) frame \(frame): \(converted)", file: file, line: line)
        let unconverted = name.hasPrefix("cmyk")
            ? try coders.decode(withoutProfile(Fixtures.colorData(name))) : try decode(name, options: preserve)
        let ignored = PixelDifference(unconverted.frames[frame].pixels, expected)
        XCTAssertFalse(ignored.isWithin(maximum: tolerance.maximum, mean: tolerance.mean),
                       "\(name): the profile makes no difference (\(ignored))", file: file, line: line)
    }

    func testSwappedRedAndGreenComeBackInPlace() throws {
        try assertConverted("swapped_rgba.png", reference: "swapped.png", tolerance: Self.lossless)
        try assertConverted("swapped_lossless.webp", reference: "swapped.png", tolerance: Self.lossless)
        // A red pixel of the picture is stored with red and green exchanged.
        let stored = try decode("swapped_rgba.png", options: preserve).pixels
        let shown = try decode("swapped_rgba.png").pixels
        let redness: [Int] = (0..<shown.width * shown.height).map { Int(shown.bytes[$0 * 4]) - Int(shown.bytes[$0 * 4 + 1]) }
        let reddest = try XCTUnwrap(redness.indices.max { redness[$0] < redness[$1] })
        let storedRed = Int(stored.bytes[reddest * 4]), storedGreen = Int(stored.bytes[reddest * 4 + 1])
        XCTAssertGreaterThan(redness[reddest], 40)
        XCTAssertGreaterThan(storedGreen - storedRed, 40, "stored with red and green exchanged")
    }

    func testAlphaIsNotConverted() throws {
        let stored = try decode("swapped_rgba.png", options: preserve).pixels
        let shown = try decode("swapped_rgba.png").pixels
        XCTAssertTrue(stored.hasTransparency)
        XCTAssertEqual(stride(from: 3, to: shown.bytes.count, by: 4).map { shown.bytes[$0] },
                       stride(from: 3, to: stored.bytes.count, by: 4).map { stored.bytes[$0] })
    }

    func testAnimationsConvertEveryFrame() throws {
        for name in ["swapped_animated.png", "swapped_animated.webp"] {
            XCTAssertEqual(try decode(name).frames.count, 2, name)
            try assertConverted(name, frame: 0, reference: "swapped.png", tolerance: Self.lossless)
            try assertConverted(name, frame: 1, reference: "swapped.last.png", tolerance: Self.lossless)
        }
    }

    func testFrameReadersConvertToo() throws {
        for name in ["swapped_animated.png", "swapped_animated.webp"] {
            let coder = try XCTUnwrap(coders.animatedCoder(for: Fixtures.colorData(name)))
            let reader = try coder.makeFrameReader(for: Fixtures.colorData(name), options: ImageDecodeOptions())
            XCTAssertNil(reader.colorProfile, "\(name): sRGB frames carry no profile")
            let difference = PixelDifference(try reader.frame(at: 1), try reference("swapped.last.png"))
            XCTAssertTrue(difference.isWithin(maximum: 3, mean: 0.5), "\(name): \(difference)")
            let kept = try coder.makeFrameReader(for: Fixtures.colorData(name), options: preserve)
            XCTAssertEqual(kept.colorProfile, try profile("swapped-red-green-v4"), name)
        }
    }

    func testJPEGThroughAWideGamutAndAGreyProfile() throws {
        try assertConverted("wide_gamut.jpg", reference: "wide_gamut.jpg.png", tolerance: Self.lossy)
        try assertConverted("gray_gamma18.jpg", reference: "gray_gamma18.jpg.png", tolerance: Self.lossy)
        // Tighter than the README asks: the same libjpeg and lcms2's matrix arithmetic.
        let difference = PixelDifference(try decode("wide_gamut.jpg").pixels, try reference("wide_gamut.jpg.png"))
        XCTAssertLessThanOrEqual(difference.maximum, 3, "\(difference)")
    }

    func testCMYKJPEGThroughItsProfile() throws {
        try assertConverted("cmyk_lut.jpg", reference: "cmyk_lut.jpg.png", tolerance: Self.cmyk)
        XCTAssertFalse(try decode("cmyk_lut.jpg").pixels.hasTransparency)
        // RGBA cannot hold CMYK: even `.preserve` converts, and then carries no profile.
        let kept = try decode("cmyk_lut.jpg", options: preserve)
        XCTAssertNil(kept.colorProfile)
        XCTAssertEqual(kept.pixels, try decode("cmyk_lut.jpg").pixels)
    }

    func testAProfileWithoutPerceptualRenderingFallsBackToRelativeColorimetric() throws {
        let profile = try profile("cmyk-lut-colorimetric")
        XCTAssertEqual(profile.colorSpace, .cmyk)
        let image = try decode("cmyk_lut_colorimetric.jpg")
        XCTAssertNil(image.colorProfileWarning)
        let difference = PixelDifference(image.pixels, try reference("cmyk_lut_colorimetric.jpg.png"))
        XCTAssertTrue(difference.isWithin(maximum: Self.cmyk.maximum, mean: Self.cmyk.mean), "\(difference)")
    }

    func testCMYKThumbnailsConvertBeforeResampling() throws {
        // libjpeg decodes at 1/4 (12 x 9): its DCT scaling differs from a resize of the full
        // reference by a few levels; the naive conversion misses by far more.
        let thumbnail = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 12, height: 9))
        let image = try decode("cmyk_lut.jpg", options: thumbnail)
        XCTAssertEqual(PixelSize(width: image.pixelWidth, height: image.pixelHeight), PixelSize(width: 12, height: 9))
        let expected = Resampler.resize(try reference("cmyk_lut.jpg.png"), to: PixelSize(width: 12, height: 9))
        let difference = PixelDifference(image.pixels, expected)
        XCTAssertTrue(difference.isWithin(maximum: 32, mean: 5), "\(difference)")
        let naive = try coders.decode(withoutProfile(Fixtures.colorData("cmyk_lut.jpg")), options: thumbnail)
        XCTAssertFalse(PixelDifference(naive.pixels, expected).isWithin(maximum: 32, mean: 5))
    }

    func testProfileSplitOverOutOfOrderMarkersIsReassembled() throws {
        let split = try decode("wide_gamut_split.jpg", options: preserve)
        XCTAssertEqual(split.colorProfile, try profile("wide-gamut-v2"))
        XCTAssertEqual(try decode("wide_gamut_split.jpg").pixels, try decode("wide_gamut.jpg").pixels)
    }

    func testPreserveKeepsTheStoredPixelsAndTheProfile() throws {
        for (name, profileName) in [("swapped_rgba.png", "swapped-red-green-v4"), ("swapped_lossless.webp", "swapped-red-green-v4"),
                                    ("wide_gamut.jpg", "wide-gamut-v2"), ("gray_gamma18.jpg", "gray-gamma18")] {
            let kept = try decode(name, options: preserve)
            XCTAssertEqual(kept.colorProfile, try profile(profileName), name)
            let converted = try decode(name)
            XCTAssertNil(converted.colorProfile, "\(name): sRGB pixels carry no profile")
            XCTAssertNotEqual(kept.pixels, converted.pixels, name)
            // The kept pixels are the stored ones: converting them later gives the decode's result.
            XCTAssertEqual(try ColorConversion.toSRGB(kept).pixels, converted.pixels, name)
            XCTAssertNil(try ColorConversion.toSRGB(kept).colorProfile, name)
        }
    }

    func testAnSRGBProfileChangesNothing() throws {
        let image = try decode("srgb.jpg")
        XCTAssertNil(image.colorProfileWarning)
        XCTAssertEqual(image.pixels, try decode("srgb.jpg", options: preserve).pixels)
        XCTAssertNil(try ColorConversion.transform(from: profile("srgb"), samples: .rgb), "no transform to run")
    }

    func testADamagedProfileIsIgnoredWithATypedWarning() throws {
        for name in ["broken_profile.png", "damaged_iccp.png"] {
            let image = try decode(name)
            guard case .malformed = image.colorProfileWarning else {
                return XCTFail("\(name): expected a malformed-profile warning, got \(String(describing: image.colorProfileWarning))")
            }
            XCTAssertNil(image.colorProfile, name)
            XCTAssertEqual(image.pixels, try decode(name, options: preserve).pixels, "\(name): pixels as stored")
            XCTAssertEqual(try decode(name, options: preserve).colorProfileWarning, image.colorProfileWarning, name)
        }
    }

    func testAProfileOfTheWrongColorSpaceIsIgnoredWithATypedWarning() throws {
        // A CMYK profile in an RGB PNG: spliced in by hand, as no encoder of ours writes one.
        let png = try [UInt8](Fixtures.colorData("swapped_rgba.png"))
        let cmyk = try profile("cmyk-lut")
        var image = try coders.decode(Data(png), options: preserve)
        image.colorProfile = nil
        let bare = try LibPNG.encode(image.pixels, keepAlpha: true)
        let spliced = try PNGWriter.inserting([(.iCCP, try PNGColorProfile.chunkData(for: cmyk))], afterHeaderOf: bare)
        let decoded = try coders.decode(Data(spliced))
        XCTAssertEqual(decoded.colorProfileWarning, .unsupported("a CMYK profile for RGB pixels"))
        XCTAssertEqual(decoded.pixels, image.pixels)
        XCTAssertNil(try coders.decode(Data(spliced), options: preserve).colorProfile, "not carried: it does not describe the pixels")
    }

    func testAProfileLcmsRefusesIsAWarningAndIsRememberedAsSuch() throws {
        // A well-formed header and tag table whose matrix/TRC tags are missing.
        var data = try Fixtures.colorData("profiles/wide-gamut-v2.icc")
        data.replaceSubrange(128..<132, with: [0, 0, 0, 1])
        let damaged = try ColorProfile(iccData: data)
        var pixels = PixelBuffer(width: 2, height: 1, bytes: [10, 20, 30, 255, 40, 50, 60, 128])
        XCTAssertThrowsError(try ColorConversion.toSRGB(&pixels, from: damaged)) { error in
            guard case .rejected = error as? ColorProfileError else { return XCTFail("expected rejected, got \(error)") }
        }
        XCTAssertEqual(pixels.bytes, [10, 20, 30, 255, 40, 50, 60, 128], "left unchanged")
        guard case .failed = ColorTransformCache.shared.entry(for: damaged, input: .rgb) else {
            return XCTFail("the refusal is cached")
        }
    }

    func testPartialDecodesConvertLikeFullOnes() throws {
        for name in ["swapped_rgba.png", "swapped_lossless.webp", "wide_gamut.jpg"] {
            let data = try Fixtures.colorData(name)
            let coder = try XCTUnwrap(coders.progressiveCoder(for: data))
            let partial = try XCTUnwrap(coder.decodePartial(data, options: ImageDecodeOptions()), name)
            XCTAssertEqual(partial.pixels, try decode(name).pixels, name)
        }
    }
}
