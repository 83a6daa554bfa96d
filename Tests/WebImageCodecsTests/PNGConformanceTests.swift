import Foundation
import XCTest
import WebImage
import WebImageTestSupport
@testable import WebImageCodecs

/// The PNG and APNG cases of issue 18 on the files `scripts/make-conformance-fixtures.py`
/// writes: Pillow is the reference where it follows the specs; where it does not (its APNG
/// "over" is a masked paste, so alpha fades), the APNG suite's stated results and the
/// Porter-Duff formula are.
final class PNGConformanceTests: XCTestCase {
    private let coder = PNGCoder()
    private let coders = ImageCoders(WebImageCodecs.defaultCoders)

    private func decode(_ name: String) throws -> Image {
        try coder.decode(Fixtures.generatedData(name), options: ImageDecodeOptions())
    }

    /// Asserts that `webimage info`'s header agrees with the decode on size and frame count.
    private func assertHeaderMatches(_ name: String, _ image: Image, file: StaticString = #filePath, line: UInt = #line) throws {
        let header = try coders.header(of: Fixtures.generatedData(name))
        XCTAssertEqual(header.frameCount, image.frames.count, "\(name) frames", file: file, line: line)
        XCTAssertEqual(header.pixelSize, PixelSize(width: image.pixelWidth, height: image.pixelHeight), name, file: file, line: line)
    }

    func testOneBitGreyKeepsItsTRNSTransparency() throws {
        // Columns alternate grey 0 and grey 1; the tRNS grey is 1 (white).
        let data = try Fixtures.generatedData("grey1_trns.png")
        let image = try coder.decode(data, options: ImageDecodeOptions())
        XCTAssertEqual(image.pixels[0, 0], RGBA(r: 0, g: 0, b: 0, a: 255))
        XCTAssertEqual(image.pixels[1, 0].a, 0)
        assertSamePixels(image.pixels, try Pillow.frame(0, of: Fixtures.generated("grey1_trns.png")), "grey1_trns vs Pillow")
        let partial = try XCTUnwrap(coder.decodePartial(data, options: ImageDecodeOptions()))
        XCTAssertEqual(partial.pixels, image.pixels, "the progressive reader")
    }
}
