import Foundation
import WebImage
import WebImageCodecs
import WebImageServer
import WebImageTestSupport
import XCTest

/// thumbor's `frame(url)` filter through a real `webimage serve`: a nine-patch written by the
/// test (a 20 × 20 picture, a 4-pixel blue border with a green top-left corner, its middle
/// stretching and its content area inside the border) framing a white 200 × 100 source.
final class ServeThumborFrameTests: ServeTestCase {
    private static let blue = RGBA(r: 0, g: 0, b: 255), green = RGBA(r: 0, g: 255, b: 0)

    /// The nine-patch: the picture at 1…20 inside the marker border, markers at 5…16 on each edge.
    private static var ninePatch: PixelBuffer {
        var pixels = PixelBuffer(width: 22, height: 22)
        for y in 1...20 {
            for x in 1...20 where x <= 4 || x >= 17 || y <= 4 || y >= 17 {
                pixels[x, y] = x <= 4 && y <= 4 ? green : blue
            }
        }
        for index in 5...16 {
            for (x, y) in [(index, 0), (0, index), (index, 21), (21, index)] { pixels[x, y] = RGBA(r: 0, g: 0, b: 0, a: 255) }
        }
        return pixels
    }

    func testTheResultIsSetInTheNinePatch() async throws {
        origin.route("/white.png", .bytes(try ImgproxyTestImages.png(PixelBuffer(width: 200, height: 100, fill: .white)),
                                          contentType: "image/png"))
        origin.route("/frame.png", .bytes(try ImgproxyTestImages.png(Self.ninePatch), contentType: "image/png"))
        origin.route("/nothing.png", .html())
        let base = try await serve(["--allow-loopback-sources"])
        let source = origin.url("/white.png").absoluteString
        let response = try await get(base + "/unsafe/filters:frame(\(origin.url("/frame.png").absoluteString)):format(png)/\(source)")
        XCTAssertEqual(response.status, 200, String(decoding: response.body, as: UTF8.self))
        let framed = try ImageCoders.shared.decode(response.body).pixels
        XCTAssertEqual([framed.width, framed.height], [208, 108], "grown by the content insets, 4 a side")
        XCTAssertEqual(framed[0, 0], Self.green)
        XCTAssertEqual(framed[3, 3], Self.green, "the corner keeps its 4 pixels")
        XCTAssertEqual(framed[4, 0], Self.blue)
        XCTAssertEqual(framed[104, 2], Self.blue, "the top edge stretches across")
        XCTAssertEqual(framed[205, 54], Self.blue)
        XCTAssertEqual(framed[104, 54], .white, "the image in the content area")
        XCTAssertEqual(framed[4, 4], .white)
        let resized = try await get(base + "/unsafe/50x0/filters:frame(\(origin.url("/frame.png").absoluteString))/\(source)")
        XCTAssertEqual(resized.status, 200)
        let small = try ImageCoders.shared.decode(resized.body)
        XCTAssertEqual([small.pixelWidth, small.pixelHeight], [58, 33], "framed after the resize")
        let missing = try await get(base + "/unsafe/filters:frame(\(origin.url("/nothing.png").absoluteString))/\(source)")
        XCTAssertEqual(missing.status, 400, "a frame that is no image is answered as a failing watermark is")
        XCTAssertTrue(String(decoding: missing.body, as: UTF8.self).contains("frame"))
    }
}
