import Foundation
import XCTest
import WebImage
import WebImageCodecs
import WebImageTestSupport

/// The GIF cases of issue 18 on the files `scripts/make-conformance-fixtures.py` writes: frames
/// reaching past the logical screen.
final class GIFConformanceTests: XCTestCase {
    private let coder = GIFCoder()
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

    func testTheCanvasGrowsToTheFirstFrame() throws {
        // A 4x4 screen; frame 0 is 6x5 at (1, 1): the canvas is 7x6, as Pillow sizes it.
        let image = try decode("gif_wide_first.gif")
        XCTAssertEqual(image.frames.count, 2)
        XCTAssertEqual(PixelSize(width: image.pixelWidth, height: image.pixelHeight), PixelSize(width: 7, height: 6))
        let first = image.frames[0].pixels
        XCTAssertEqual(first[6, 5], RGBA(r: 255, g: 0, b: 0), "frame 0's last pixel")
        // Row 0 and column 0 lie outside frame 0: transparent, as browsers start the canvas
        // (Pillow fills them with palette entry 0). Everything drawn is what Pillow shows.
        XCTAssertEqual(first.bytes.enumerated().filter { $0.offset % 4 == 3 && $0.element == 0 }.count, 12)
        let url = Fixtures.generated("gif_wide_first.gif")
        for index in 0..<2 {
            let ours = image.frames[index].pixels, pillow = try Pillow.frame(index, of: url)
            XCTAssertEqual(PixelSize(width: pillow.width, height: pillow.height), PixelSize(width: 7, height: 6))
            for y in 0..<6 {
                for x in 0..<7 where ours[x, y].a != 0 { XCTAssertEqual(ours[x, y], pillow[x, y], "frame \(index) (\(x), \(y))") }
            }
        }
        try assertHeaderMatches("gif_wide_first.gif", image)
    }

    func testLaterFramesPastTheCanvasAreClipped() throws {
        // Frame 1 (3x3 at 2,2) reaches one pixel past the 4x4 screen: kept 4x4, as browsers
        // show it (Pillow grows its later frames to 5x5; its first 4x4 pixels are the same).
        let image = try decode("gif_wide_later.gif")
        XCTAssertEqual(image.frames.count, 2)
        XCTAssertEqual(PixelSize(width: image.pixelWidth, height: image.pixelHeight), PixelSize(width: 4, height: 4))
        let pillow = try Pillow.frame(1, of: Fixtures.generated("gif_wide_later.gif"))
        for y in 0..<4 {
            for x in 0..<4 { XCTAssertEqual(image.frames[1].pixels[x, y], pillow[x, y], "(\(x), \(y))") }
        }
        try assertHeaderMatches("gif_wide_later.gif", image)
    }
}
