import Foundation
import LoopbackHTTPServer
import WebImage
import WebImageCodecs
import WebImageTestSupport
import XCTest

/// What `webimage get`, `decode` and `info` write: animations kept through thumbnails and
/// resizes, formats by extension, headers of images too large to decode, and the help texts.
final class CommandLineImageTests: XCTestCase {
    private var folder: URL!
    private var server: LoopbackHTTPServer!
    private let coders = ImageCoders(WebImageCodecs.defaultCoders)

    override func setUp() async throws {
        folder = try TemporaryFolder(self).url
        server = try await LoopbackHTTPServer.start()
    }

    override func tearDown() async throws {
        try await server.stop()
    }

    /// Serves fixture `path` and runs `get` on it with `arguments`; returns the decoded file
    /// written as `name` and the decoded source.
    private func get(_ path: String, _ arguments: [String], saved name: String) throws -> (saved: Image, source: Image) {
        let data = try Fixtures.imageData(path)
        let urlPath = "/" + URL(fileURLWithPath: path).lastPathComponent
        server.route(urlPath, .bytes(data))
        let out = folder.appendingPathComponent(UUID().uuidString)
        let run = try WebImageCLI.run(["get", "--no-cache", "-o", out.path] + arguments + [server.url(urlPath).absoluteString])
        XCTAssertEqual(run.status, 0, run.error)
        let saved = try Data(contentsOf: out.appendingPathComponent(name))
        return (try coders.decode(saved), try coders.decode(data))
    }

    private func assertSameTiming(_ saved: Image, _ source: Image, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(saved.frames.count, source.frames.count, "frames", file: file, line: line)
        XCTAssertEqual(saved.loopCount, source.loopCount, "loop count", file: file, line: line)
        XCTAssertEqual(saved.durations.map { ($0 * 100).rounded() }, source.durations.map { ($0 * 100).rounded() },
                       "durations (GIF keeps hundredths)", file: file, line: line)
    }

    func testAThumbnailOfAnAnimatedGIFStaysAnAnimatedGIF() throws {
        let (saved, source) = try get("gif/sd_TestImage.gif", ["--thumbnail", "20"], saved: "sd_TestImage.gif")
        XCTAssertEqual(saved.format, .gif)
        XCTAssertEqual(max(saved.pixelWidth, saved.pixelHeight), 20)
        XCTAssertGreaterThan(source.frames.count, 1)
        assertSameTiming(saved, source)
    }

    func testResizeResizesEveryFrameOfAPNGAndWebPAnimations() throws {
        let (apng, apngSource) = try get("png/apng_delay.png", ["--resize", "32x16", "--mode", "fill"], saved: "apng_delay.png")
        XCTAssertEqual([apng.pixelWidth, apng.pixelHeight], [32, 16])
        XCTAssertEqual(Set(apng.frames.map { [$0.pixels.width, $0.pixels.height] }), [[32, 16]])
        assertSameTiming(apng, apngSource)

        let (webp, webpSource) = try get("webp/sd_TestAnimatedImageMemory.webp", ["--resize", "60x40", "--mode", "aspect-fill"],
                                         saved: "sd_TestAnimatedImageMemory.webp")
        XCTAssertEqual(webp.format, .webp)
        XCTAssertEqual([webp.pixelWidth, webp.pixelHeight], [60, 40])
        XCTAssertEqual(webp.frames.count, webpSource.frames.count)
        XCTAssertEqual(webp.loopCount, webpSource.loopCount)
        XCTAssertEqual(webp.durations.map { ($0 * 1000).rounded() }, webpSource.durations.map { ($0 * 1000).rounded() })
    }

    func testFormatStillWinsOverTheSourceFormat() throws {
        let (gif, source) = try get("gif/sd_TestImage.gif", ["--thumbnail", "20", "--format", "webp"], saved: "sd_TestImage.webp")
        XCTAssertEqual(gif.format, .webp)
        XCTAssertEqual(gif.frames.count, source.frames.count, "WebP animates too")
    }

    func testDecodeWritesTheFormatOfTheExtension() throws {
        let input = Fixtures.image("gif/sd_TestImage.gif").path
        for (name, format) in [("out.jpg", ImageFormat.jpeg), ("out.JPEG", .jpeg), ("out.png", .png), ("out.apng", .png),
                               ("out.webp", .webp), ("out.gif", .gif)] {
            let output = folder.appendingPathComponent(name)
            let run = try WebImageCLI.run(["decode", input, "-o", output.path, "--frame", "last"])
            XCTAssertEqual(run.status, 0, "\(name): \(run.error)")
            XCTAssertEqual(ImageFormat(detecting: try Data(contentsOf: output)), format, name)
        }
        let refused = try WebImageCLI.run(["decode", input, "-o", folder.appendingPathComponent("out.bmp").path])
        XCTAssertEqual(refused.status, 64)
        XCTAssertTrue(refused.error.contains("cannot tell the format of"), refused.error)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.bmp").path))
    }

    /// A JPEG whose header says 12,000 × 10,000 pixels (120 megapixels) and whose body is that of an 8 × 8 image.
    private func hugeJPEG() throws -> Data {
        var bytes = [UInt8](try coders.encode(Image(pixels: PixelBuffer(width: 8, height: 8, fill: RGBA(r: 9, g: 9, b: 9))), as: .jpeg))
        let sof = try XCTUnwrap((0..<bytes.count - 1).first { bytes[$0] == 0xFF && (bytes[$0 + 1] == 0xC0 || bytes[$0 + 1] == 0xC2) })
        bytes.replaceSubrange(sof + 5..<sof + 9, with: [0x27, 0x10, 0x2E, 0xE0])   // height 10000, width 12000
        return Data(bytes)
    }

    func testInfoDescribesAnImageTooLargeToDecodeFromItsHeader() throws {
        let file = folder.appendingPathComponent("huge.jpg")
        try hugeJPEG().write(to: file)
        let decode = try WebImageCLI.run(["decode", file.path, "-o", folder.appendingPathComponent("huge.png").path])
        XCTAssertEqual(decode.status, 1, "over the 100-megapixel limit: \(decode.error)")
        let info = try WebImageCLI.run(["info", file.path])
        XCTAssertEqual(info.status, 0, info.error)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(info.output.utf8)) as? [String: Any])
        XCTAssertEqual(object["format"] as? String, "jpeg")
        XCTAssertEqual(object["width"] as? Int, 12000)
        XCTAssertEqual(object["height"] as? Int, 10000)
        XCTAssertEqual(object["frames"] as? Int, 1)

        let animated = try WebImageCLI.run(["info", Fixtures.image("gif/sd_TestImage.gif").path])
        XCTAssertEqual(animated.output.trimmingCharacters(in: .newlines),
                       #"{"durationsMs":[120,120,120,120,120],"format":"gif","frames":5,"height":50,"loopCount":0,"orientation":1,"width":50}"#)
    }

    /// `info --blurhash --thumbhash --colors` on a flat image under 100 pixels a side (its own
    /// thumbnail): the library's answers for the same pixels, the ThumbHash in base64.
    func testInfoAddsTheHashesAndColoursWhenAsked() throws {
        let colour = RGBA(r: 200, g: 40, b: 40)
        let pixels = PixelBuffer(width: 64, height: 40, fill: colour)
        let file = folder.appendingPathComponent("red.png")
        try coders.encode(Image(pixels: pixels), as: .png).write(to: file)
        let info = try WebImageCLI.run(["info", "--blurhash", "--thumbhash", "--colors", file.path])
        XCTAssertEqual(info.status, 0, info.error)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(info.output.utf8)) as? [String: Any])
        XCTAssertEqual(object["blurHash"] as? String, try BlurHash.encode(pixels, xComponents: 4, yComponents: 3))
        let thumbHash = try XCTUnwrap(Data(base64Encoded: try XCTUnwrap(object["thumbHash"] as? String)))
        XCTAssertEqual([UInt8](thumbHash), try ThumbHash.encode(pixels))
        XCTAssertEqual(object["averageColor"] as? String, "#C82828")
        XCTAssertEqual(object["dominantColors"] as? [String: String], ["vibrant": "#C82828"])
        let plain = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try WebImageCLI.run(["info", file.path]).output.utf8)) as? [String: Any])
        XCTAssertNil(plain["blurHash"], "the header alone unless asked")
    }

    /// A bitmap through `info` and `decode`: BMP is read (and not written).
    func testInfoAndDecodeReadBMP() throws {
        let file = folder.appendingPathComponent("two.bmp")
        // 2 × 1, 24 bits: blue then red, the row padded to 8 bytes.
        try BMPFile.make(width: 2, height: 1, pixels: [255, 0, 0, 0, 0, 255, 0, 0]).write(to: file)
        let info = try WebImageCLI.run(["info", file.path])
        XCTAssertEqual(info.status, 0, info.error)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(info.output.utf8)) as? [String: Any])
        XCTAssertEqual(object["format"] as? String, "bmp")
        XCTAssertEqual([object["width"] as? Int, object["height"] as? Int], [2, 1])
        let png = folder.appendingPathComponent("two.png")
        let decode = try WebImageCLI.run(["decode", file.path, "-o", png.path])
        XCTAssertEqual(decode.status, 0, decode.error)
        let pixels = try coders.decode(try Data(contentsOf: png)).pixels
        XCTAssertEqual([pixels[0, 0], pixels[1, 0]], [RGBA(r: 0, g: 0, b: 255), RGBA(r: 255, g: 0, b: 0)])
    }

    func testHelpVersionAndExamplesFitEightyColumns() throws {
        let version = try WebImageCLI.run(["--version"])
        XCTAssertEqual(version.status, 0)
        XCTAssertEqual(version.output, "webimage \(WebImageVersion.string)\n")
        let decode = try WebImageCLI.run(["decode", "--help"])
        XCTAssertTrue(decode.output.contains("(default: 0)"), decode.output)
        XCTAssertFalse(decode.output.contains("index("), decode.output)
        for command in [["get"], ["decode"], ["info"], []] {
            let help = try ChildProcess.run(BuiltProducts.executable("webimage"), command + ["--help"], environment: ["COLUMNS": "80"])
            for line in help.output.split(separator: "\n") {
                XCTAssertLessThanOrEqual(line.count, 80, "\(command): \(line)")
            }
            let examples = help.output.split(separator: "\n").filter { $0.hasPrefix("  webimage ") || $0.hasPrefix("      --") }
            XCTAssertFalse(examples.isEmpty, "\(command) has examples")
        }
    }
}
