import Foundation
import XCTest
import WebImage
import WebImageCodecs
import WebImageTestSupport

/// The GIF cases of issue 35 where giflib alone reads less than Pillow: frames that reach past
/// the logical screen (Pillow's `test_extents*.gif` recipe: a second GIF header pasted between
/// two frames), and LZW minimum code sizes above 8 (Pillow's `issue_2811.gif`, code size 11).
/// The files are written by ``GIFBytes`` in the test, except `pil_issue_2811.gif`, taken from
/// Pillow's `Tests/images` (see `Tests/Fixtures/README.md`).
final class GIFPillowParityTests: XCTestCase {
    private let coder = GIFCoder()
    private static let palette: [(UInt8, UInt8, UInt8)] = [(0, 0, 0), (255, 255, 255), (255, 0, 0), (0, 255, 0)]

    /// A 4 × 4 screen: frame 0 fills it (index 1 transparent), then a second header, then
    /// frame 1, 4 × 4 at (2, 2), reaching 2 pixels past the screen both ways.
    private func pastedHeaderFile() -> Data {
        var gif = GIFBytes(width: 4, height: 4, palette: Self.palette)
        gif.appendControl(transparentIndex: 1)
        gif.appendFrame(left: 0, top: 0, width: 4, indices: (0..<16).map { UInt8($0 % 3 == 0 ? 1 : 2) }, codeSize: 2)
        gif.appendHeader(width: 4, height: 4, palette: Self.palette)
        gif.appendControl(transparentIndex: 1)
        gif.appendFrame(left: 2, top: 2, width: 4, indices: (0..<16).map { UInt8($0 % 2 == 0 ? 3 : 1) }, codeSize: 2)
        gif.appendTrailer()
        return Data(gif.bytes)
    }

    func testFramesAfterAPastedHeaderAreReadAndGrowTheCanvas() throws {
        let data = pastedHeaderFile()
        let folder = try TemporaryFolder(self)
        let url = folder.url.appendingPathComponent("extents.gif")
        try data.write(to: url)
        let image = try coder.decode(data, options: ImageDecodeOptions())
        XCTAssertEqual(image.frames.count, 2, "the frame after the pasted header")
        XCTAssertEqual(PixelSize(width: image.pixelWidth, height: image.pixelHeight), PixelSize(width: 6, height: 6))
        let last = image.frames[1].pixels
        XCTAssertEqual(last[4, 4], RGBA(r: 0, g: 255, b: 0), "frame 1's pixel past the screen")
        XCTAssertEqual(last[5, 5].a, 0, "frame 1's transparent corner")
        // Pillow's last frame is the grown canvas: the same size and pixels.
        assertSamePixels(last, try Pillow.frame(1, of: url), "last frame vs Pillow")
        // Pillow's frame 0 is the screen alone: ours holds it in its top-left corner.
        let pillowFirst = try Pillow.frame(0, of: url)
        XCTAssertEqual(PixelSize(width: pillowFirst.width, height: pillowFirst.height), PixelSize(width: 4, height: 4))
        for y in 0..<4 {
            for x in 0..<4 where pillowFirst[x, y].a != 0 {
                XCTAssertEqual(image.frames[0].pixels[x, y], pillowFirst[x, y], "frame 0 (\(x), \(y))")
            }
        }
        let header = try ImageCoders(WebImageCodecs.defaultCoders).header(of: data)
        XCTAssertEqual(header.pixelSize, PixelSize(width: 6, height: 6))
        XCTAssertEqual(header.frameCount, 2)
    }

    func testLimitsApplyToTheGrownCanvas() throws {
        let coders = ImageCoders(WebImageCodecs.defaultCoders)
        let data = pastedHeaderFile()
        // The screen is 16 pixels, the grown canvas 36.
        var options = ImageDecodeOptions()
        options.maxSourcePixels = 30
        options.firstFrameOnly = true
        XCTAssertThrowsError(try coders.decode(data, options: options)) {
            XCTAssertEqual($0 as? ImageCodingError, .tooManySourcePixels(width: 6, height: 6, frames: 1, limit: 30))
        }
        XCTAssertThrowsError(try coders.decode(data, options: ImageDecodeOptions(maxPixels: 30))) {
            XCTAssertEqual($0 as? ImageCodingError, .tooManyPixels(width: 6, height: 6, limit: 30))
        }
        var frames = ImageDecodeOptions()
        frames.maxFrameCount = 1
        XCTAssertThrowsError(try coders.decode(data, options: frames)) {
            XCTAssertEqual($0 as? ImageCodingError, .tooManyFrames(count: 2, limit: 1))
        }
    }

    func testMinimumCodeSizesAboveEightDecodeAsPillowDoes() throws {
        // 64 x 40 = 2560 pixels: more than one table's worth of literals at code size 11, so
        // the data holds clear codes between literals too.
        let indices = (0..<2560).map { (n: Int) -> UInt8 in
            let column = n % 64, band = n / 64 / 3
            return UInt8((column + band) % 4)
        }
        let folder = try TemporaryFolder(self)
        var decoded: [Int: PixelBuffer] = [:]
        for codeSize in [2, 8, 9, 10, 11] {
            var gif = GIFBytes(width: 64, height: 40, palette: Self.palette)
            gif.appendFrame(left: 0, top: 0, width: 64, indices: indices, codeSize: codeSize)
            gif.appendTrailer()
            let url = folder.url.appendingPathComponent("code\(codeSize).gif")
            try Data(gif.bytes).write(to: url)
            let pixels = try coder.decode(Data(gif.bytes), options: ImageDecodeOptions()).pixels
            assertSamePixels(pixels, try Pillow.frame(0, of: url), "code size \(codeSize) vs Pillow")
            decoded[codeSize] = pixels
        }
        for codeSize in [8, 9, 10, 11] {
            XCTAssertEqual(decoded[codeSize], decoded[2], "code size \(codeSize) against code size 2 (giflib)")
        }
        // Column 62 of row 38 (band 12): index (62 + 12) % 4 = 2, red.
        XCTAssertEqual(decoded[11]?[62, 38], RGBA(r: 255, g: 0, b: 0))
    }

    func testPillowsIssue2811IsDecoded() throws {
        // LZW minimum code size 11, with strings from the table, as an encoder wrote it.
        let url = Fixtures.image("gif/pil_issue_2811.gif")
        let image = try coder.decode(try Fixtures.data(url), options: ImageDecodeOptions())
        XCTAssertEqual(image.frames.count, 1)
        assertSamePixels(image.pixels, try Pillow.frame(0, of: url), "issue_2811.gif vs Pillow")
    }

    func testACodeSizeOverElevenIsRefusedClearly() throws {
        var gif = GIFBytes(width: 4, height: 4, palette: Self.palette)
        gif.appendFrame(left: 0, top: 0, width: 4, indices: [UInt8](repeating: 2, count: 16), codeSize: 2)
        gif.appendTrailer()
        var bytes = gif.bytes
        let codeSizeAt = 13 + 12 + 10
        XCTAssertEqual(bytes[codeSizeAt], 2)
        bytes[codeSizeAt] = 12
        XCTAssertThrowsError(try coder.decode(Data(bytes), options: ImageDecodeOptions())) {
            guard case .corrupt(.gif, let message)? = $0 as? ImageCodingError else { return XCTFail("\($0)") }
            XCTAssertTrue(message.contains("code size 12"), message)
        }
    }
}
