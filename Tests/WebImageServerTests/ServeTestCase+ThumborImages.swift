import Foundation
import WebImage
import WebImageCodecs
import XCTest

/// Images for the thumbor tests: drawn PNG sources served by the origin, and answers checked and decoded.
extension ServeTestCase {
    /// What `path` on `base` answers: `Cache-Control`, the body's size, the image, after checking it is a 200 of `format`.
    func fetched(_ base: String, _ path: String, format: ImageFormat, file: StaticString = #filePath,
                 line: UInt = #line) async throws -> (answer: (cacheControl: String?, bytes: Int), image: Image) {
        let response = try await get(base + path)
        XCTAssertEqual(response.status, 200, String(decoding: response.body, as: UTF8.self), file: file, line: line)
        XCTAssertEqual(response.headers.first(name: "Content-Type"), "image/\(format.rawValue)", path, file: file, line: line)
        return ((response.headers.first(name: "Cache-Control"), response.body.count), try ImageCoders.shared.decode(response.body))
    }

    /// Whether every channel of `a` is within 12 of `b`'s (JPEG's error).
    func near(_ a: RGBA, _ b: RGBA) -> Bool {
        [(a.r, b.r), (a.g, b.g), (a.b, b.b), (a.a, b.a)].allSatisfy { abs(Int($0.0) - Int($0.1)) <= 12 }
    }

    /// A PNG of `width` × `height` in `fill`, with each of `areas` drawn in its colour, served
    /// at `/name`; the URL to ask for it.
    func servePNG(_ name: String, width: Int, height: Int, fill: RGBA, areas: [(PixelRect, RGBA)] = []) throws -> String {
        var pixels = PixelBuffer(width: width, height: height, fill: fill)
        for (area, colour) in areas {
            for y in area.y..<(area.y + area.height) {
                for x in area.x..<(area.x + area.width) {
                    let i = (y * width + x) * 4
                    pixels.bytes.replaceSubrange(i..<(i + 4), with: [colour.r, colour.g, colour.b, colour.a])
                }
            }
        }
        let png = try ImageCoders(WebImageCodecs.defaultCoders).encode(Image(pixels: pixels), as: .png)
        origin.route("/\(name)", .bytes(png, contentType: "image/png"))
        return origin.url("/\(name)").absoluteString
    }

    /// Two halves, red on the left and blue on the right, 200 × 100, served at `/halves.png`; its URL.
    func serveHalves() throws -> String {
        try servePNG("halves.png", width: 200, height: 100, fill: RGBA(r: 255, g: 0, b: 0),
                     areas: [(PixelRect(x: 100, y: 0, width: 100, height: 100), RGBA(r: 0, g: 0, b: 255))])
    }
}
