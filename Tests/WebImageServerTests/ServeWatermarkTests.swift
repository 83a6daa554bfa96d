import Foundation
import WebImage
import WebImageCodecs
import WebImageServer
import WebImageTestSupport
import XCTest

/// imgproxy's `watermark` option through a real `webimage serve`: a 20 × 10 red mark written
/// by the test, laid over a white 200 × 100 source, its placement read from the pixels.
final class ServeWatermarkTests: ServeTestCase {
    private static let red = RGBA(r: 255, g: 0, b: 0), white = RGBA(r: 255, g: 255, b: 255)
    private var base = ""

    override func setUp() async throws {
        try await super.setUp()
        let mark = try ImgproxyTestImages.png(PixelBuffer(width: 20, height: 10, fill: Self.red))
        let markFile = folder.appending("mark.png")
        try mark.write(to: markFile)
        origin.route("/white.png", .bytes(try ImgproxyTestImages.png(PixelBuffer(width: 200, height: 100, fill: Self.white)),
                                          contentType: "image/png"))
        base = try await serve(["--allow-loopback-sources", "--watermark-path", markFile.path])
    }

    private func served(_ options: String, at server: String? = nil, line: UInt = #line) async throws -> PixelBuffer {
        let answer = try await get((server ?? base) + "/insecure/\(options)/plain/\(origin.url("/white.png").absoluteString)@png")
        XCTAssertEqual(answer.status, 200, "\(options): " + String(decoding: answer.body, as: UTF8.self), line: line)
        return try ImageCoders.shared.decode(answer.body).pixels
    }

    /// The red pixels' bounding box `x,y,w,h` and their count.
    private func redBox(_ pixels: PixelBuffer) -> (box: String, count: Int) { pixels.box(of: Self.red) }

    /// Every position of imgproxy's table, and offsets (moving inwards from an edge), in pixels.
    func testPositionsPlaceTheMark() async throws {
        let table: [(String, String)] = [
            ("wm:1", "90,46,20,10"), ("wm:1:ce", "90,46,20,10"), ("wm:1:no", "90,0,20,10"), ("wm:1:so", "90,90,20,10"),
            ("wm:1:ea", "180,46,20,10"), ("wm:1:we", "0,46,20,10"), ("wm:1:noea", "180,0,20,10"),
            ("wm:1:nowe", "0,0,20,10"), ("wm:1:soea", "180,90,20,10"), ("watermark:1:sowe", "0,90,20,10"),
            ("wm:1:nowe:10:5", "10,5,20,10"), ("wm:1:soea:10:5", "170,85,20,10"), ("wm:1:nowe:0.25:0.5", "50,50,20,10"),
            // Past the edge: what stays on the image is drawn.
            ("wm:1:nowe:-5:-4", "0,0,15,6"),
        ]
        for (options, box) in table {
            let pixels = try await served(options)
            let red = redBox(pixels)
            XCTAssertEqual(red.box, box, options)
            XCTAssertEqual(red.count, Int(box.split(separator: ",")[2])! * Int(box.split(separator: ",")[3])!, "\(options): a solid box")
        }
    }

    func testOffsetsAreMultipliedByTheDevicePixelRatio() async throws {
        let pixels = try await served("rs:fit:100:50/dpr:2/wm:1:nowe:10:5")
        XCTAssertEqual([pixels.width, pixels.height], [200, 100])
        XCTAssertEqual(redBox(pixels).box, "20,10,20,10")
    }

    func testTilingCoversTheImageWithTheOffsetsAsSpacing() async throws {
        let solid = try await served("wm:1:re")
        XCTAssertEqual(redBox(solid).count, 200 * 100, "20 × 10 tiles cover 200 × 100 exactly")
        let spaced = try await served("wm:1:re:10:10")
        // Cells of 30 × 20, the mark 5 pixels in from each cell's corner.
        for (x, y, isRed) in [(5, 5, true), (24, 14, true), (4, 5, false), (25, 5, false), (35, 5, true), (5, 25, true),
                              (35, 25, true), (0, 0, false), (29, 19, false), (185, 85, true)] {
            XCTAssertEqual(spaced[x, y] == Self.red, isRed, "(\(x), \(y)) is \(spaced[x, y])")
        }
        XCTAssertEqual(redBox(spaced).count, (6 * 20 + 15) * 10 * 5, "six whole columns and 15 pixels of a seventh, five rows")
    }

    func testOpacityBlendsAndScaleFitsTheResult() async throws {
        let half = try await served("wm:0.5:nowe")
        let blended = half[5, 5]
        XCTAssertEqual(blended.r, 255)
        XCTAssertEqual(Double(blended.g), 127.5, accuracy: 1.5)
        XCTAssertEqual(half[25, 5], Self.white)
        let scaled = try await served("wm:1:nowe:0:0:0.5")
        // 20 × 10 fitted into 100 × 50: five times larger.
        XCTAssertEqual(scaled[5, 5], Self.red)
        XCTAssertEqual(scaled[95, 45], Self.red)
        XCTAssertEqual(scaled[105, 45], Self.white)
        XCTAssertEqual(scaled[95, 55], Self.white)
        let off = try await served("wm:0:ce")
        XCTAssertEqual(redBox(off).count, 0, "opacity 0 is no watermark")
        // The base opacity multiplies the URL's: 0.5 × 1 blends as wm:0.5 does, 0.5 × 0.5 lighter.
        let based = try await serve(["--allow-loopback-sources", "--watermark-path", folder.appending("mark.png").path,
                               "--watermark-opacity", "0.5"])
        let baseHalf = try await served("wm:1:nowe", at: based), baseQuarter = try await served("wm:0.5:nowe", at: based)
        XCTAssertEqual(Double(baseHalf[5, 5].g), 127.5, accuracy: 1.5)
        XCTAssertEqual(Double(baseQuarter[5, 5].g), 191, accuracy: 1.5)
    }

    func testBadArgumentsAreRefusedAndNoWatermarkConfiguredDoesNothing() async throws {
        for options in ["wm:2", "wm:1:sm", "wm:1:fp:0.5:0.5", "wm:1:ce:0:0:0", "wm:1:ce:0:0:1:1:1:1", "wm:x"] {
            let answer = try await get(base + "/insecure/\(options)/plain/\(origin.url("/white.png").absoluteString)@png")
            XCTAssertEqual(answer.status, 400, options)
        }
        // imgproxy Pro's sixth and seventh arguments are read and ignored, as imgproxy's open-source edition does.
        let proArguments = try await served("wm:1:nowe:0:0:0.1:x:y")
        XCTAssertEqual(redBox(proArguments).box, "0,0,20,10")
        let plain = try await serve(["--allow-loopback-sources"])
        let pixels = try await served("wm:1:ce", at: plain)
        XCTAssertEqual(redBox(pixels).count, 0)
        XCTAssertEqual(pixels[100, 50], Self.white)
    }

    func testAWatermarkGivenAsDataAndOneThatIsNoImageStopsTheStart() async throws {
        let mark = try ImgproxyTestImages.png(PixelBuffer(width: 20, height: 10, fill: Self.red))
        let fromData = try await serve(["--allow-loopback-sources"], environment: ["IMGPROXY_WATERMARK_DATA": mark.base64EncodedString()])
        let laid = try await served("wm:1:soea", at: fromData)
        XCTAssertEqual(redBox(laid).box, "180,90,20,10")
        let notImage = folder.appending("not-an-image.png")
        try Data("hello".utf8).write(to: notImage)
        do {
            _ = try await serve(["--watermark-path", notImage.path])
            XCTFail("a watermark that is no image stops the start")
        } catch {
            XCTAssertTrue(String(describing: error).contains("the watermark could not be loaded"), "\(error)")
        }
    }
}
