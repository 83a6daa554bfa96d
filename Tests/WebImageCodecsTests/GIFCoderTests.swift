import Foundation
import WebImage
import WebImageCodecs
import WebImageTestSupport
import XCTest

/// The GIF coder against the fixture corpus: Pillow's facts from the manifest, pixels checked
/// against Pillow's reference frames, and bad input that must fail with a typed error.
final class GIFCoderTests: XCTestCase {
    private let coder = GIFCoder()

    private func fixture(_ name: String) throws -> Data {
        try Fixtures.imageData("gif/" + name)
    }

    private func decode(_ name: String, options: ImageDecodeOptions = ImageDecodeOptions()) throws -> Image {
        try coder.decode(fixture(name), options: options)
    }

    /// Decoding `data` either throws an ``ImageCodingError`` or gives a complete image of `size`.
    private func assertTypedErrorOrImage(_ data: Data, size: PixelSize? = nil, _ message: String,
                                         file: StaticString = #filePath, line: UInt = #line) {
        do {
            let image = try coder.decode(data, options: ImageDecodeOptions())
            if let size {
                XCTAssertEqual(PixelSize(width: image.pixelWidth, height: image.pixelHeight), size, message,
                               file: file, line: line)
            }
            for frame in image.frames {
                XCTAssertEqual(frame.pixels.bytes.count, image.pixelWidth * image.pixelHeight * 4, message,
                               file: file, line: line)
            }
        } catch {
            XCTAssertTrue(error is ImageCodingError, "\(message): untyped error \(error)", file: file, line: line)
        }
    }

    // MARK: - Manifest facts

    func testEveryDecodableGIFMatchesTheManifest() throws {
        let corpus = try Fixtures.requireFullCorpus(for: "every decodable GIF of the manifest")
        let entries = try corpus.manifest(kind: "gif").filter(\.decodes)
        XCTAssertEqual(entries.count, 9)
        for entry in entries {
            let name = entry.file
            let image = try coder.decode(corpus.imageData(name), options: ImageDecodeOptions())
            XCTAssertEqual(image.format, .gif, name)
            XCTAssertEqual(image.pixelWidth, entry.width, name)
            XCTAssertEqual(image.pixelHeight, entry.height, name)
            XCTAssertEqual(image.frames.count, entry.frames, name)
            guard image.frames.count > 1 else { continue }
            XCTAssertEqual(image.loopCount, entry.loop ?? 1, name)
            let expected = try XCTUnwrap(entry.durations_ms, name)
                .map { try XCTUnwrap($0, name) }.map { $0 < 11 ? 100 : $0 }
            XCTAssertEqual(image.durations.map { ($0 * 1000).rounded() }, expected, name)
        }
    }

    func testLoopCounts() throws {
        XCTAssertEqual(try decode("sd_1@2x.gif").loopCount, 65535, "the NETSCAPE value as stored")
        XCTAssertEqual(try decode("pil_chi.gif").loopCount, 0, "0 = forever")
        XCTAssertEqual(try decode("sd_TestLoopCount.gif").loopCount, 1, "no loop block: plays once")
    }

    func testReaderReportsStoredDelays() throws {
        let reader = try coder.makeFrameReader(for: fixture("pil_dispose_prev.gif"), options: ImageDecodeOptions())
        XCTAssertEqual(reader.canvasSize, PixelSize(100))
        XCTAssertEqual(reader.frameCount, 5)
        XCTAssertEqual(reader.loopCount, 0)
        XCTAssertEqual(reader.duration(at: 0), 0, "stored as 0; the under-11 ms rule applies at decode")
        XCTAssertEqual(reader.duration(at: 1), 1.0)
        XCTAssertEqual(try decode("pil_dispose_prev.gif").durations[0], 0.1)
    }

    // MARK: - Pixels verified against Pillow's references (images/ref/NAME.f0.png, NAME.last.png)

    private func assertPixels(_ name: String, frame: Int, _ expected: [(x: Int, y: Int, color: RGBA)],
                              file: StaticString = #filePath, line: UInt = #line) throws {
        let image = try decode(name)
        let pixels = image.frames[frame < 0 ? image.frames.count - 1 : frame].pixels
        for (x, y, color) in expected {
            let got = pixels[x, y]
            if color.a == 0 {
                XCTAssertEqual(got.a, 0, "\(name) frame \(frame) (\(x),\(y))", file: file, line: line)
            } else {
                XCTAssertEqual(got, color, "\(name) frame \(frame) (\(x),\(y))", file: file, line: line)
            }
        }
    }

    private static let sky = RGBA(r: 135, g: 206, b: 235), blue = RGBA(r: 30, g: 144, b: 255)
    private static let black = RGBA(r: 0, g: 0, b: 0), yellow = RGBA(r: 255, g: 255, b: 0)

    func testDisposalFramesMatchPillow() throws {
        let firstFrame = [(0, 0, Self.sky), (20, 25, Self.blue), (50, 45, Self.blue), (75, 65, Self.blue),
                          (25, 70, Self.blue), (99, 99, Self.sky)]
        for name in ["pil_dispose_bgnd.gif", "pil_dispose_none.gif", "pil_dispose_prev.gif"] {
            try assertPixels(name, frame: 0, firstFrame.map { (x: $0.0, y: $0.1, color: $0.2) })
        }
        // Disposal 2 without transparency: the background index in the frame's own palette (black).
        try assertPixels("pil_dispose_bgnd.gif", frame: -1, [
            (0, 0, Self.sky), (20, 25, Self.black), (50, 45, Self.black), (75, 65, Self.black),
            (25, 70, Self.yellow), (99, 99, Self.sky),
        ])
        // Disposal 1: every frame stays.
        try assertPixels("pil_dispose_none.gif", frame: -1, [
            (0, 0, Self.sky), (20, 25, Self.black), (50, 45, Self.black),
            (75, 65, RGBA(r: 0, g: 255, b: 255)), (25, 70, Self.yellow), (99, 99, Self.sky),
        ])
        // Disposal 3: each frame's area goes back to frame 0.
        try assertPixels("pil_dispose_prev.gif", frame: -1, [
            (0, 0, Self.sky), (20, 25, Self.blue), (50, 45, Self.blue), (75, 65, Self.blue),
            (25, 70, Self.yellow), (99, 99, Self.sky),
        ])
    }

    func testTransparencyMatchesPillow() throws {
        try assertPixels("pil_transparent.gif", frame: 0, [
            (0, 0, .clear), (150, 100, .clear), (100, 75, RGBA(r: 134, g: 60, b: 60)),
            (50, 40, RGBA(r: 97, g: 97, b: 170)),
        ])
        let image = try decode("pil_transparent.gif")
        XCTAssertEqual(image.pixels.bytes.enumerated().filter { $0.offset % 4 == 3 && $0.element == 0 }.count,
                       20114, "Pillow's count of transparent pixels")
    }

    func testAnimatedFramesMatchPillow() throws {
        let white = RGBA(r: 255, g: 255, b: 255)
        try assertPixels("sd_TestImage.gif", frame: 0, [
            (0, 0, white), (25, 25, RGBA(r: 149, g: 137, b: 101)), (12, 30, white), (40, 10, white),
        ])
        try assertPixels("sd_TestImage.gif", frame: -1, [
            (0, 0, white), (25, 25, Self.black), (12, 30, white), (30, 40, RGBA(r: 200, g: 197, b: 188)),
        ])
        try assertPixels("sd_TestLoopCount.gif", frame: 0, [
            (0, 0, Self.black), (36, 24, RGBA(r: 131, g: 159, b: 205)), (10, 20, RGBA(r: 115, g: 148, b: 199)),
        ])
        try assertPixels("sd_TestLoopCount.gif", frame: -1, [
            (10, 20, white), (60, 30, RGBA(r: 12, g: 71, b: 157)),
        ])
    }

    // MARK: - Frame reader

    func testFramesInAnyOrderMatchTheSequentialDecode() throws {
        for name in ["pil_dispose_prev.gif", "pil_dispose_bgnd.gif", "sd_TestImage.gif"] {
            let sequential = try decode(name).frames.map(\.pixels)
            let reader = try coder.makeFrameReader(for: fixture(name), options: ImageDecodeOptions())
            for index in [3, 1, 4, 4, 0, 2, 1] {
                XCTAssertEqual(try reader.frame(at: index), sequential[index], "\(name) frame \(index)")
            }
            XCTAssertThrowsError(try reader.frame(at: 5)) { XCTAssertTrue($0 is ImageCodingError) }
        }
    }

    func testFirstFrameOnly() throws {
        let image = try decode("pil_chi.gif", options: ImageDecodeOptions(firstFrameOnly: true))
        XCTAssertEqual(image.frames.count, 1)
        XCTAssertEqual(image.loopCount, 1)
        XCTAssertEqual(image.pixels, try decode("pil_chi.gif").pixels)
    }

    /// A logical screen patched smaller than the first frame grows back to that frame's
    /// extents (as browsers and Pillow size it): the decode is the unpatched one.
    func testTheScreenGrowsToTheFirstFrame() throws {
        for (name, side) in [("sd_TestImage.gif", 30), ("pil_dispose_bgnd.gif", 40), ("pil_dispose_prev.gif", 0)] {
            let full = try decode(name)
            var data = try fixture(name)
            data.replaceSubrange(6..<10, with: [UInt8(side), 0, UInt8(side), 0])
            let grown = try coder.decode(data, options: ImageDecodeOptions())
            XCTAssertEqual(grown.frames.map(\.pixels), full.frames.map(\.pixels), name)
        }
    }

    func testCodecFacts() throws {
        XCTAssertTrue(coder.canDecode(try fixture("pil_hopper.gif")))
        XCTAssertFalse(coder.canDecode(Data("GIF90a".utf8)))
        XCTAssertTrue(coder.canEncode(.gif))
        // A real GIF re-encoded keeps its pixels: its colours fit one palette.
        let hopper = try decode("pil_hopper.gif")
        let again = try coder.decode(coder.encode(hopper, as: .gif, options: ImageEncodeOptions()), options: ImageDecodeOptions())
        XCTAssertEqual(again.frames.map(\.pixels), hopper.frames.map(\.pixels))
    }

    // MARK: - Bad input

    func testFilesPillowRejectsFailTyped() throws {
        // A frame 10751x5 at row 65280 (Pillow grows its canvas to 10751x65285 and calls it a
        // bomb) whose local colour table is cut off: truncated here.
        XCTAssertThrowsError(try decode("pil_decompression_bomb.gif")) {
            XCTAssertEqual($0 as? ImageCodingError, .truncated(.gif))
        }
        // A 0x32 screen (grown to the first frame, as browsers do) and a frame whose data
        // ends at its minimum code size byte: no frame to show, truncated.
        XCTAssertThrowsError(try decode("pil_zero_width.gif")) {
            XCTAssertEqual($0 as? ImageCodingError, .truncated(.gif))
        }
    }

    func testPixelLimitIsCheckedOnTheScreen() throws {
        XCTAssertThrowsError(try decode("sd_1@2x.gif", options: ImageDecodeOptions(maxPixels: 399 * 400))) {
            XCTAssertEqual($0 as? ImageCodingError, .tooManyPixels(width: 400, height: 400, limit: 399 * 400))
        }
    }

    func testEmptyAndForeignBytes() {
        XCTAssertThrowsError(try coder.decode(Data(), options: ImageDecodeOptions())) {
            XCTAssertEqual($0 as? ImageCodingError, .empty)
        }
        XCTAssertThrowsError(try coder.decode(Data(repeating: 0, count: 64), options: ImageDecodeOptions())) {
            XCTAssertEqual($0 as? ImageCodingError, .unsupportedFormat(.undefined))
        }
        var generator = SeededRandom(seed: 7)
        for length in [1, 6, 13, 50, 800] {
            let random = Data(generator.bytes(length))
            assertTypedErrorOrImage(random, "random \(length) bytes")
            assertTypedErrorOrImage(Data("GIF89a".utf8) + random, "GIF89a + random \(length) bytes")
        }
    }

    func testTruncationGivesATypedErrorOrAnImage() throws {
        for name in ["sd_TestImage.gif", "pil_chi.gif", "pil_transparent.gif", "sd_TestLoopCount.gif", "sd_1@2x.gif"] {
            let data = try fixture(name)
            let size = try decode(name).frames[0].pixels
            for cut in 1...100 {
                let length = data.count * cut / 101
                assertTypedErrorOrImage(data.prefix(length), size: PixelSize(width: size.width, height: size.height),
                                        "\(name) cut at \(length)")
            }
        }
        // Cut inside its global palette: no frame yet.
        XCTAssertThrowsError(try coder.decode(try fixture("sd_TestImage.gif").prefix(500), options: ImageDecodeOptions())) {
            XCTAssertEqual($0 as? ImageCodingError, .truncated(.gif))
        }
        // Cut inside frame 2's pixel data: frames 0 to 2, the last as far as it decodes.
        let partial = try coder.decode(try fixture("sd_TestImage.gif").prefix(2000), options: ImageDecodeOptions())
        XCTAssertEqual(partial.frames.count, 3, "the frames whose descriptors arrived")
        XCTAssertEqual(partial.pixels.width, 50)
    }

    func testCorruptedBytesNeverCrash() throws {
        var generator = SeededRandom(seed: 42)
        for name in ["sd_TestImage.gif", "pil_dispose_bgnd.gif", "sd_TestLoopCount.gif"] {
            let original = try fixture(name)
            for _ in 0..<300 {
                var data = original
                for _ in 0..<4 {
                    let offset = 6 + Int(generator.next() % UInt64(data.count - 6))
                    data[offset] = generator.byte()
                }
                assertTypedErrorOrImage(data, "\(name) with changed bytes")
            }
        }
    }
}
