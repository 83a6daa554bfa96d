import Foundation
import WebImage
import WebImageCodecs
import WebImageServer
import WebImageTestSupport
import XCTest

/// thumbor's `watermark(url,x,y,alpha[,w_ratio,h_ratio])` filter through a real `webimage
/// serve`: red marks written by the test, fetched from the loopback origin, laid over a white
/// 200 × 100 source; where they land, how transparent and how many, read from the pixels, with
/// the numbers worked out from thumbor/filters/watermark.py.
final class ServeThumborWatermarkTests: ServeTestCase {
    private static let red = RGBA(r: 255, g: 0, b: 0), white = RGBA(r: 255, g: 255, b: 255)
    private var base = ""

    override func setUp() async throws {
        try await super.setUp()
        try route("/white.png", PixelBuffer(width: 200, height: 100, fill: Self.white))
        for (name, width, height) in [("mark", 20, 10), ("wide", 30, 10), ("small", 10, 5)] {
            try route("/\(name).png", PixelBuffer(width: width, height: height, fill: Self.red))
        }
        origin.route("/nothing.png", .html())
        base = try await serve(["--allow-loopback-sources"])
    }

    private func route(_ path: String, _ pixels: PixelBuffer) throws {
        origin.route(path, .bytes(try ImgproxyTestImages.png(pixels), contentType: "image/png"))
    }

    /// The answer to `filters` (a watermark of `/mark` first, `MARK` standing for a mark's URL) over the white source.
    private func answer(_ filters: String, at server: String? = nil, source: String? = nil) async throws
        -> (status: Int, headers: [String: String], body: Data) {
        let filled = filters.replacingOccurrences(of: "MARK", with: origin.url("/").absoluteString)
        let response = try await get((server ?? base) + "/unsafe/filters:\(filled):format(png)/"
            + (source ?? origin.url("/white.png").absoluteString))
        var headers: [String: String] = [:]
        for field in response.headers { headers[field.name] = field.value }
        return (response.status, headers, response.body)
    }

    private func served(_ filters: String, line: UInt = #line) async throws -> PixelBuffer {
        let response = try await answer(filters)
        XCTAssertEqual(response.status, 200, "\(filters): " + String(decoding: response.body, as: UTF8.self), line: line)
        return try ImageCoders.shared.decode(response.body).pixels
    }

    /// The red pixels' bounding box `x,y,w,h` and their count.
    private func redBox(_ pixels: PixelBuffer) -> (box: String, count: Int) { pixels.box(of: Self.red) }

    /// Pixels from the left and top, negative ones (and `-0`) from the right and bottom,
    /// `center` (rounded towards the top left) and percentages of the side.
    func testPositionsPlaceTheMark() async throws {
        let table: [(String, String)] = [
            ("watermark(MARKmark.png,10,20,0)", "10,20,20,10"),
            ("watermark(MARKmark.png,-10,-20,0)", "170,70,20,10"),
            ("watermark(MARKmark.png,-0,-0,0)", "180,90,20,10"),
            ("watermark(MARKmark.png,center,center,0)", "90,45,20,10"),
            ("watermark(MARKmark.png,10p,-20p,0)", "20,70,20,10"),  // 10 % of 200, 20 % of 100 from the bottom
            ("watermark(MARKmark.png,195,-95,0)", "195,0,5,5"),      // cut at the edges
        ]
        for (filters, box) in table {
            let red = redBox(try await served(filters))
            XCTAssertEqual(red.box, box, filters)
            let sides = box.split(separator: ",").map { Int($0)! }
            XCTAssertEqual(red.count, sides[2] * sides[3], "\(filters): one solid mark")
        }
    }

    /// `repeat` counts whole marks and shares the spare pixels between them; both ways into
    /// more than 100 copies, six a side.
    func testRepeatSpreadsThumborsCountOfCopies() async throws {
        let covered = try await served("watermark(MARKmark.png,repeat,repeat,0)")
        XCTAssertEqual(redBox(covered).count, 200 * 100, "10 × 10 marks of 20 × 10 cover the image")
        let row = try await served("watermark(MARKmark.png,repeat,10,0)")
        XCTAssertEqual(redBox(row).box, "0,10,200,10")
        // 30-pixel marks: six fit in 200, the 20 spare pixels give gaps of 20 // 5 = 4.
        let spaced = try await served("watermark(MARKwide.png,repeat,center,0)")
        for x in 0..<200 {
            XCTAssertEqual(spaced[x, 50] == Self.red, x % 34 < 30, "column \(x)")
        }
        XCTAssertEqual(redBox(spaced).box, "0,45,200,10")
        // 10 × 5 marks: 20 × 20 copies would be 400, so 6 × 6, 140 // 5 = 28 and 70 // 5 = 14 apart.
        let capped = try await served("watermark(MARKsmall.png,repeat,repeat,0)")
        XCTAssertEqual(redBox(capped).count, 36 * 50)
        for (x, y, isRed) in [(0, 0, true), (9, 4, true), (10, 0, false), (38, 0, true), (37, 0, false), (190, 95, true),
                              (0, 19, true), (0, 18, false), (189, 99, false)] {
            XCTAssertEqual(capped[x, y] == Self.red, isRed, "(\(x), \(y))")
        }
    }

    /// alpha is transparency: 50 takes 127 off the mark's alpha (255 → 128) before it is laid
    /// over white; 100 leaves nothing.
    func testAlphaIsTransparency() async throws {
        let half = try await served("watermark(MARKmark.png,0,0,50)")
        XCTAssertEqual(half[5, 5].r, 255)
        XCTAssertEqual(Double(half[5, 5].g), 127, accuracy: 1, "white under a mark of alpha 128")
        XCTAssertEqual(half[25, 5], Self.white)
        for alpha in [100, 150] {
            let gone = try await served("watermark(MARKmark.png,0,0,\(alpha))")
            XCTAssertEqual(gone[5, 5], Self.white, "alpha \(alpha)")
        }
    }

    /// w_ratio and h_ratio bound the mark to percentages of the image, `none` or one of them
    /// alone letting the other side follow the mark's aspect.
    func testRatiosResizeTheMark() async throws {
        let table: [(String, String)] = [
            ("watermark(MARKmark.png,0,0,0,50,none)", "0,0,100,50"),
            ("watermark(MARKmark.png,0,0,0,none,20)", "0,0,40,20"),
            ("watermark(MARKmark.png,-0,-0,0,10,50)", "180,90,20,10"),  // the width bounds it first
            ("watermark(MARKmark.png,0,0,0,30,30)", "0,0,60,30"),
        ]
        for (filters, box) in table {
            let pixels = try await served(filters)
            XCTAssertEqual(redBox(pixels).box, box, filters)
        }
    }

    /// The mark is fetched as a source is: a mark the policy refuses is a 404, one missing a 400
    /// (as thumbor answers it) and never the fallback image; bad arguments are a 400.
    func testMarksGoThroughTheSourcePolicy() async throws {
        let fallback = folder.appending("fallback.png")
        try ImgproxyTestImages.png(PixelBuffer(width: 8, height: 8, fill: RGBA(r: 0, g: 200, b: 0))).write(to: fallback)
        let withFallback = try await serve(["--allow-loopback-sources", "--fallback-image-path", fallback.path])
        let missing = try await answer("watermark(MARKnone.png,0,0,0)", at: withFallback)
        XCTAssertEqual(missing.status, 400, String(decoding: missing.body, as: UTF8.self))
        XCTAssertNil(missing.headers["Fallback-Image"])
        XCTAssertTrue(String(decoding: missing.body, as: UTF8.self).contains("watermark"))
        let notAnImage = try await answer("watermark(MARKnothing.png,0,0,0)", at: withFallback)
        XCTAssertEqual(notAnImage.status, 400)

        // Only the source's prefix allowed: the mark's URL is refused before it is fetched.
        let prefixed = try await serve(["--allow-loopback-sources", "--allowed-sources", origin.url("/white.png").absoluteString])
        let refused = try await answer("watermark(MARKmark.png,0,0,0)", at: prefixed)
        XCTAssertEqual(refused.status, 404)
        // Loopback addresses not allowed: a local source with a loopback mark is refused where it connects.
        let root = folder.appending("root")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try ImgproxyTestImages.png(PixelBuffer(width: 200, height: 100, fill: Self.white)).write(to: root.appendingPathComponent("white.png"))
        let strict = try await serve(["--local-root", root.path])
        let loopback = try await answer("watermark(MARKmark.png,0,0,0)", at: strict, source: "local:///white.png")
        XCTAssertEqual(loopback.status, 404)
        let local = try await answer("format(png)", at: strict, source: "local:///white.png")
        XCTAssertEqual(local.status, 200, "the source alone is served")

        for filters in ["watermark(MARKmark.png,abc,0,0)", "watermark(MARKmark.png,0,0)", "watermark(MARKmark.png,0,0,-5)",
                        "watermark(MARKmark.png,0,0,0,-10,none)", "watermark(MARKmark.png,0,1p0,0)"] {
            let response = try await answer(filters)
            XCTAssertEqual(response.status, 400, filters)
        }
    }

    /// The marks of a URL share the source pixel limit: two 20 × 10 marks fit in 400 pixels, a
    /// third is refused (400 for a thumbor URL, as thumbor answers a failing engine) before it is decoded.
    func testMarksShareTheSourcePixelLimit() async throws {
        try route("/tiny.png", PixelBuffer(width: 20, height: 20, fill: Self.white))
        let small = try await serve(["--allow-loopback-sources", "--max-src-resolution", "0.0004"])
        let tiny = origin.url("/tiny.png").absoluteString
        let two = try await answer("watermark(MARKmark.png,0,0,0):watermark(MARKmark.png,0,10,0)", at: small, source: tiny)
        XCTAssertEqual(two.status, 200, String(decoding: two.body, as: UTF8.self))
        XCTAssertEqual(try ImageCoders.shared.decode(two.body).pixels.box(of: Self.red).count, 400)
        let three = try await answer("watermark(MARKmark.png,0,0,0):watermark(MARKmark.png,0,10,0):watermark(MARKmark.png,0,5,0)",
                                     at: small, source: tiny)
        XCTAssertEqual(three.status, 400, String(decoding: three.body, as: UTF8.self))
    }
}
