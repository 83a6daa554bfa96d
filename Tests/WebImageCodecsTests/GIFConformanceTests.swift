import Foundation
import XCTest
import WebImage
import WebImageCodecs
import WebImageTestSupport

/// The GIF cases of issue 18 on the files `scripts/make-conformance-fixtures.py` writes: frames
/// reaching past the logical screen, and data that giflib refuses after the first frame.
/// (Issue 35's cases, a pasted second header and wide LZW codes, are ``GIFPillowParityTests``.)
final class GIFConformanceTests: XCTestCase {
    private let coder = GIFCoder()

    private func decode(_ name: String) throws -> Image {
        try coder.decode(Fixtures.generatedData(name), options: ImageDecodeOptions())
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

    func testLaterFramesPastTheCanvasGrowIt() throws {
        // Frame 1 (3x3 at 2,2) reaches one pixel past the 4x4 screen: the canvas is 5x5, the
        // size Pillow grows its later frames to. The 4 pixels no frame covers are transparent,
        // as the canvas starts (Pillow fills them with palette entry 0); the rest is Pillow's.
        let image = try decode("gif_wide_later.gif")
        XCTAssertEqual(image.frames.count, 2)
        XCTAssertEqual(PixelSize(width: image.pixelWidth, height: image.pixelHeight), PixelSize(width: 5, height: 5))
        let last = image.frames[1].pixels, pillow = try Pillow.frame(1, of: Fixtures.generated("gif_wide_later.gif"))
        XCTAssertEqual(PixelSize(width: pillow.width, height: pillow.height), PixelSize(width: 5, height: 5))
        XCTAssertEqual(last[4, 4], RGBA(r: 0, g: 255, b: 0), "frame 1's corner past the screen")
        XCTAssertEqual(last.bytes.enumerated().filter { $0.offset % 4 == 3 && $0.element == 0 }.count, 4)
        for y in 0..<5 {
            for x in 0..<5 where last[x, y].a != 0 { XCTAssertEqual(last[x, y], pillow[x, y], "(\(x), \(y))") }
        }
        try assertHeaderMatches("gif_wide_later.gif", image)
    }

    func testDataBrokenAfterAFrameKeepsTheFrames() throws {
        // Junk instead of the trailer, and a comment block running past the end: both frames,
        // as Pillow shows them.
        for name in ["gif_trailing_junk.gif", "gif_bad_block.gif"] {
            let image = try decode(name)
            XCTAssertEqual(image.frames.count, 2, name)
            let url = Fixtures.generated(name)
            for index in 0..<2 {
                assertSamePixels(image.frames[index].pixels, try Pillow.frame(index, of: url), "\(name) frame \(index) vs Pillow")
            }
            try assertHeaderMatches(name, image)
        }
    }

    func testACutFrameIsDecodedAsFarAsItGoes() throws {
        // Frame 0 is red; frame 1's noise is cut in its second LZW sub-block: its first rows
        // are drawn over the red, its last rows are still red.
        let image = try decode("gif_cut_frame.gif")
        XCTAssertEqual(image.frames.count, 2)
        let last = image.frames[1].pixels
        let red = RGBA(r: 255, g: 0, b: 0)
        XCTAssertTrue((0..<32).contains { last[$0, 0] != red }, "the first row is drawn")
        XCTAssertEqual(Set((0..<32).map { last[$0, 31] }), [red], "the last row is missing")
        try assertHeaderMatches("gif_cut_frame.gif", image)
    }

    func testPixelDataThatEndsEarlyOrBreaksKeepsItsRows() throws {
        // Frame 1 of gif_trailing_junk.gif is 8 green pixels, then 8 white. Its LZW data
        // replaced by a stream that holds only the green rows, then by one whose second code
        // LZW cannot decode: the frame keeps what decoded, and the file still decodes.
        let data = try Fixtures.generatedData("gif_trailing_junk.gif")
        let secondData = try XCTUnwrap(Self.range(ofLZWDataOfFrame: 1, in: data))
        let shortStream: [UInt8] = [2, 3, 0x9C, 0x6F, 0x05, 0]       // 8 pixels of index 3, then the end code
        let badStream: [UInt8] = [2, 3, 0x04, 0xFF, 0xFF, 0]         // one pixel, then a code out of the table
        for (label, stream, firstRow) in [("short", shortStream, RGBA(r: 0, g: 255, b: 0)),
                                          ("bad code", badStream, RGBA(r: 255, g: 0, b: 0))] {
            var patched = data
            patched.replaceSubrange(secondData, with: stream)
            let image = try coder.decode(patched, options: ImageDecodeOptions())
            XCTAssertEqual(image.frames.count, 2, label)
            XCTAssertEqual(image.frames[1].pixels[0, 0], firstRow, "\(label): row 0")
            XCTAssertEqual(image.frames[1].pixels[0, 3], RGBA(r: 255, g: 0, b: 0), "\(label): row 3 keeps frame 0's red")
        }
    }

    func testCutsBeforeTheFirstFrameAreStillTruncated() throws {
        // Header, palette and loop block are 13 + 12 + 19 bytes: no frame yet.
        let data = try Fixtures.generatedData("gif_trailing_junk.gif")
        for length in [6, 13, 30, 44, 50] {
            XCTAssertThrowsError(try coder.decode(data.prefix(length), options: ImageDecodeOptions()), "\(length)") {
                XCTAssertEqual($0 as? ImageCodingError, .truncated(.gif), "cut at \(length)")
            }
        }
    }

    /// The LZW data (minimum code size byte to the block terminator) of frame `index` of a
    /// GIF written by the fixture script (global palette of 4 colours, no local palettes).
    private static func range(ofLZWDataOfFrame index: Int, in data: Data) -> Range<Int>? {
        let bytes = [UInt8](data)
        var offset = 13 + 12, frame = 0
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x21:
                offset += 2
                while offset < bytes.count, bytes[offset] != 0 { offset += Int(bytes[offset]) + 1 }
                offset += 1
            case 0x2C:
                let start = offset + 10
                var end = start + 1
                while end < bytes.count, bytes[end] != 0 { end += Int(bytes[end]) + 1 }
                if frame == index { return start..<end + 1 }
                frame += 1
                offset = end + 1
            default:
                return nil
            }
        }
        return nil
    }
}
