import Foundation
@testable import WebImageCodecs
import WebImage
import WebImageTestSupport
import XCTest

/// A JPEG's colours are converted as libjpeg writes its rows (a band at a time, beside the
/// decoder from a megapixel up): the pixels must be those of a conversion of the whole decoded
/// image afterwards, for every band layout, and a decode that fails half-way must fail cleanly.
final class FusedColorConversionTests: XCTestCase {
    private let coders = ImageCoders(WebImageCodecs.defaultCoders)
    private let preserve = ImageDecodeOptions(colorManagement: .preserve)

    private func wideGamut() throws -> ColorProfile {
        try ColorProfile(iccData: Fixtures.colorData("profiles/wide-gamut-v2.icc"))
    }

    /// A `width` × `height` JPEG of saturated gradients (out of sRGB's gamut under the
    /// wide-gamut profile, so the conversion clips some of them) with the profile embedded.
    private func jpeg(width: Int, height: Int) throws -> Data {
        var bytes = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let at = (y * width + x) * 4
                bytes[at] = UInt8(x * 255 / max(1, width - 1))
                bytes[at + 1] = UInt8(y * 255 / max(1, height - 1))
                bytes[at + 2] = UInt8((x + y) % 256)
            }
        }
        var image = Image(pixels: PixelBuffer(width: width, height: height, bytes: bytes))
        image.colorProfile = try wideGamut()
        return try coders.encode(image, as: .jpeg, options: ImageEncodeOptions(quality: 0.9))
    }

    /// Asserts that decoding `data` converts exactly as converting the kept pixels afterwards
    /// does, and that the conversion changed them.
    private func assertFusedMatchesWhole(_ data: Data, file: StaticString = #filePath, line: UInt = #line) throws {
        let kept = try coders.decode(data, options: preserve)
        XCTAssertEqual(kept.colorProfile, try wideGamut(), file: file, line: line)
        let fused = try coders.decode(data)
        XCTAssertNil(fused.colorProfile, file: file, line: line)
        let whole = try ColorConversion.toSRGB(kept)
        XCTAssertEqual(fused.pixels, whole.pixels, file: file, line: line)
        XCTAssertNotEqual(fused.pixels, kept.pixels, "the profile changed nothing", file: file, line: line)
    }

    func testAMegapixelJPEGConvertedBesideTheDecoderEqualsAConversionAfterwards() throws {
        // 1,111 px rows: 58 rows a band, the last band short (1,000 = 17 × 58 + 14).
        try assertFusedMatchesWhole(try jpeg(width: 1111, height: 1000))
    }

    func testASmallJPEGConvertedBandByBandEqualsAConversionAfterwards() throws {
        try assertFusedMatchesWhole(try jpeg(width: 97, height: 61))
    }

    func testBandsCoverEveryRowOnceAndStopWhenTheFillFails() throws {
        let transform = try XCTUnwrap(ColorConversion.transform(from: try wideGamut(), samples: .rgb))
        let width = 1111, height = 1000, rowBytes = width * 4
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: width * height * 4, alignment: 16)
        defer { buffer.deallocate() }
        var filledRows: [Int] = []
        let finished = transform.convertingBands(of: buffer, rowBytes: rowBytes) { band, rows in
            XCTAssertEqual(band.count, rows * rowBytes)
            band.initializeMemory(as: UInt8.self, repeating: 200)
            filledRows.append(rows)
            return true
        }
        XCTAssertTrue(finished)
        XCTAssertEqual(filledRows.reduce(0, +), height)
        XCTAssertEqual(filledRows.count, 18)
        var expected = PixelBuffer(width: width, height: height, fill: RGBA(r: 200, g: 200, b: 200, a: 200))
        transform.apply(to: &expected)
        XCTAssertEqual(Array(buffer), expected.bytes)

        var calls = 0
        let stopped = transform.convertingBands(of: buffer, rowBytes: rowBytes) { _, _ in
            calls += 1
            return calls < 3
        }
        XCTAssertFalse(stopped)
        XCTAssertEqual(calls, 3)
    }

    func testATruncatedMegapixelJPEGFailsWithATypedError() throws {
        let data = try jpeg(width: 1111, height: 1000)
        let truncated = data.prefix(data.count / 2)
        XCTAssertThrowsError(try coders.decode(truncated)) { error in
            XCTAssertTrue(error is ImageCodingError, "\(error)")
        }
    }
}
