import Foundation
import WebImage
import WebImageCodecs
import WebImageTestSupport
import XCTest

/// Encoders embed the profile of the pixels they write: an image decoded with `.preserve`
/// keeps its colours through an encode and a decode; sRGB pixels are written without one.
final class ColorProfileEncodingTests: XCTestCase {
    private let coders = ImageCoders(WebImageCodecs.defaultCoders)
    private let preserve = ImageDecodeOptions(colorManagement: .preserve)

    private func kept(_ name: String) throws -> Image {
        try coders.decode(Fixtures.colorData(name), options: preserve)
    }

    func testEveryEncoderEmbedsTheProfileOfKeptPixels() throws {
        // Lossless formats give the pixels back exactly; JPEG loses a little, as any re-encode.
        let cases: [(String, ImageFormat, ImageEncodeOptions, (maximum: Int, mean: Double))] = [
            ("swapped_rgba.png", .png, ImageEncodeOptions(), (0, 0)),
            ("swapped_rgba.png", .webp, ImageEncodeOptions(lossless: true), (0, 0)),
            ("wide_gamut.jpg", .jpeg, ImageEncodeOptions(quality: 0.95), (24, 1.5)),
            ("swapped_animated.png", .png, ImageEncodeOptions(), (0, 0)),
            ("swapped_animated.webp", .webp, ImageEncodeOptions(lossless: true), (0, 0)),
            ("swapped_rgba.png", .avif, ImageEncodeOptions(lossless: true), (0, 0)),
        ]
        for (name, format, options, tolerance) in cases {
            let source = try kept(name)
            let profile = try XCTUnwrap(source.colorProfile, name)
            let encoded = try coders.encode(source, as: format, options: options)
            XCTAssertEqual(try coders.header(of: encoded).colorProfile, profile, "\(name) as \(format): the header names it")
            let again = try coders.decode(encoded, options: preserve)
            XCTAssertEqual(again.colorProfile, profile, "\(name) as \(format)")
            XCTAssertEqual(again.frames.count, source.frames.count, "\(name) as \(format)")
            // The pixels written are the kept ones, not converted.
            for index in again.frames.indices {
                let difference = PixelDifference(again.frames[index].pixels, source.frames[index].pixels)
                XCTAssertTrue(difference.isWithin(maximum: tolerance.maximum, mean: tolerance.mean),
                              "\(name) as \(format) frame \(index): \(difference)")
            }
        }
    }

    func testSRGBPixelsAreWrittenWithoutAProfile() throws {
        let converted = try coders.decode(Fixtures.colorData("wide_gamut.jpg"))
        XCTAssertNil(converted.colorProfile)
        for format in [ImageFormat.jpeg, .png, .webp] {
            let encoded = try coders.encode(converted, as: format)
            XCTAssertNil(try coders.header(of: encoded).colorProfile, "\(format)")
            XCTAssertFalse(encoded.contains(Data("ICC_PROFILE".utf8)) || encoded.contains(Data("iCCP".utf8))
                           || encoded.contains(Data("ICCP".utf8)), "\(format): no profile chunk")
        }
    }

    func testKeptGreyPixelsAreConvertedForRGBFiles() throws {
        // No RGB file can declare a grey profile: the encoder writes sRGB instead.
        let grey = try kept("gray_gamma18.jpg")
        XCTAssertEqual(grey.colorProfile?.colorSpace, .gray)
        let encoded = try coders.encode(grey, as: .png)
        XCTAssertNil(try coders.header(of: encoded).colorProfile)
        let difference = PixelDifference(try coders.decode(encoded).pixels, try coders.decode(Fixtures.colorData("gray_gamma18.jpg")).pixels)
        XCTAssertTrue(difference.isWithin(maximum: 0, mean: 0), "\(difference)")
    }

    func testJPEGXLWritesKeptPixelsAsSRGB() throws {
        // The JPEG XL encoder declares sRGB: kept pixels are converted rather than mislabelled.
        let source = try kept("swapped_rgba.png")
        let encoded = try coders.encode(source, as: .jxl, options: ImageEncodeOptions(lossless: true))
        let decoded = try coders.decode(encoded, options: preserve)
        XCTAssertNil(decoded.colorProfileWarning)
        let difference = PixelDifference(decoded.pixels, try coders.decode(Fixtures.colorData("swapped_rgba.png")).pixels)
        XCTAssertTrue(difference.isWithin(maximum: 1, mean: 0.01), "\(difference)")
    }

    func testAnAppCanAttachAProfileToItsOwnPixels() throws {
        let profile = try ColorProfile(iccData: Fixtures.colorData("profiles/wide-gamut-v2.icc"))
        let image = Image(pixels: PixelBuffer(width: 4, height: 4, fill: RGBA(r: 200, g: 30, b: 60)), colorProfile: profile)
        for format in [ImageFormat.jpeg, .png, .webp] {
            let decoded = try coders.decode(try coders.encode(image, as: format), options: preserve)
            XCTAssertEqual(decoded.colorProfile, profile, "\(format)")
        }
    }
}
