import Foundation
import WebImage
import WebImageCodecs
import WebImageTestSupport
import XCTest

/// Animations still downloading: GIF and APNG show the frames received so far, as
/// SDWebImage's progressive animated coders do, each frame as the whole file decodes it.
final class AnimatedPartialDecodeTests: XCTestCase {
    /// Cuts `data` at `fractions` of its length and checks each partial image: incomplete, the
    /// canvas size of the whole, no fewer frames than the cut before, fewer than the whole
    /// file, and every frame (but a lone first one still arriving) equal to the whole file's.
    /// Returns the frame counts seen.
    private func assertFramesSoFar(_ coder: some ProgressiveImageCoder, _ data: Data, fractions: [Double],
                                   file: StaticString = #filePath, line: UInt = #line) throws -> [Int] {
        let whole = try coder.decode(data, options: ImageDecodeOptions())
        var counts: [Int] = []
        for fraction in fractions {
            let cut = data.prefix(Int(Double(data.count) * fraction))
            let partial = try XCTUnwrap(coder.decodePartial(cut, options: ImageDecodeOptions()),
                                        "cut at \(fraction)", file: file, line: line)
            XCTAssertTrue(partial.isIncomplete, "cut at \(fraction)", file: file, line: line)
            XCTAssertEqual(partial.pixelWidth, whole.pixelWidth, file: file, line: line)
            XCTAssertEqual(partial.pixelHeight, whole.pixelHeight, file: file, line: line)
            XCTAssertGreaterThanOrEqual(partial.frames.count, counts.last ?? 1, "cut at \(fraction)", file: file, line: line)
            XCTAssertLessThan(partial.frames.count, whole.frames.count, "cut at \(fraction)", file: file, line: line)
            if partial.frames.count > 1 {
                for index in partial.frames.indices {
                    XCTAssertEqual(partial.frames[index].pixels, whole.frames[index].pixels,
                                   "frame \(index), cut at \(fraction)", file: file, line: line)
                    XCTAssertEqual(partial.frames[index].duration, whole.frames[index].duration, file: file, line: line)
                }
            }
            counts.append(partial.frames.count)
        }
        let complete = try XCTUnwrap(coder.decodePartial(data, options: ImageDecodeOptions()), file: file, line: line)
        XCTAssertFalse(complete.isIncomplete, file: file, line: line)
        XCTAssertEqual(complete.frames.count, whole.frames.count, file: file, line: line)
        XCTAssertEqual(complete.frames.last?.pixels, whole.frames.last?.pixels, file: file, line: line)
        return counts
    }

    func testAGIFStillArrivingShowsTheFramesReceivedSoFar() throws {
        let data = try Fixtures.imageData("gif/sd_1@2x.gif")
        let counts = try assertFramesSoFar(GIFCoder(), data, fractions: [0.1, 0.3, 0.5, 0.7, 0.9])
        XCTAssertGreaterThan(counts[0], 1, "a tenth of a 44-frame file holds several frames")
        XCTAssertGreaterThan(counts.last!, counts[0], "more bytes, more frames")
    }

    func testAnAPNGStillArrivingShowsTheFramesReceivedSoFar() throws {
        let data = try Fixtures.imageData("png/sd_TestImageAnimated.apng")
        let counts = try assertFramesSoFar(PNGCoder(), data, fractions: [0.2, 0.4, 0.6, 0.8, 0.95])
        XCTAssertGreaterThan(counts[0], 1, "a fifth of a 101-frame file holds several frames")
        XCTAssertGreaterThan(counts.last!, counts[0], "more bytes, more frames")
    }

    func testTheFirstGIFFrameShowsAsFarAsItsRowsHaveArrived() throws {
        let coder = GIFCoder()
        let data = try Fixtures.imageData("gif/pil_hopper.gif")
        let whole = try coder.decode(data, options: ImageDecodeOptions()).pixels
        let partial = try XCTUnwrap(coder.decodePartial(data.prefix(data.count / 2), options: ImageDecodeOptions()))
        XCTAssertTrue(partial.isIncomplete)
        XCTAssertEqual(partial.frames.count, 1)
        XCTAssertEqual(partial.pixels.width, whole.width)
        XCTAssertEqual(partial.pixels.height, whole.height)
        let rowBytes = whole.bytesPerRow
        XCTAssertEqual(partial.pixels.bytes[0..<rowBytes], whole.bytes[0..<rowBytes], "the first row has arrived")
        XCTAssertNotEqual(partial.pixels, whole, "the last rows have not")
    }

    func testNothingShowsBeforeTheFirstImageDescriptor() {
        let coder = GIFCoder()
        XCTAssertNil(coder.decodePartial(Data("GIF89a".utf8), options: ImageDecodeOptions()))
        XCTAssertNil(coder.decodePartial(Data("not a gif".utf8), options: ImageDecodeOptions()))
    }

    func testTheFirstFrameOnlyOptionShowsOneFrame() throws {
        let data = try Fixtures.imageData("gif/sd_1@2x.gif")
        var options = ImageDecodeOptions()
        options.firstFrameOnly = true
        let gif = try XCTUnwrap(GIFCoder().decodePartial(data.prefix(data.count / 2), options: options))
        XCTAssertEqual(gif.frames.count, 1)
        let apng = try Fixtures.imageData("png/sd_TestImageAnimated.apng")
        let png = try XCTUnwrap(PNGCoder().decodePartial(apng.prefix(apng.count / 2), options: options))
        XCTAssertEqual(png.frames.count, 1)
    }
}
