import Foundation
import WebImage
import WebImageCodecs
import WebImageServer
import WebImageTestSupport
import XCTest

/// SVG sources through thumbor URLs, with test_base_handler.py's sizes: thumbor draws every SVG
/// source and answers PNG, at its intrinsic size or at the size asked (where imgproxy URLs answer
/// the sanitized SVG unless asked otherwise).
final class ServeThumborSVGTests: ServeTestCase {
    func testAnSVGSourceIsDrawnAsPNG() async throws {
        let svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="1024px" height="1376px" viewBox="0 0 1024 1376">\
            <rect width="1024" height="688" fill="#c00"/><rect y="688" width="1024" height="688" fill="#00c"/></svg>
            """
        origin.route("/Commons-logo.svg", .bytes(Data(svg.utf8), contentType: "image/svg+xml"))
        let source = origin.url("/Commons-logo.svg").absoluteString
        let base = try serve(["--allow-loopback-sources"])
        let cases: [(String, [Int], String)] = [
            ("/unsafe/\(source)", [1024, 1376], "test_can_read_image_svg_with_px_units_and_convert_png"),
            ("/unsafe/400x500/\(source)", [400, 500], "test_svg_with_px_units_and_convert_to_png_with_size"),
            ("/unsafe/fit-in/300x/\(source)", [300, 403], "test_svg_with_px_units_and_convert_to_png_with_width"),
        ]
        for (path, size, name) in cases {
            let response = try await get(base + path)
            XCTAssertEqual(response.status, 200, name)
            XCTAssertEqual(response.headers.first(name: "Content-Type"), "image/png", name)
            let image = try ImageCoders.shared.decode(response.body)
            XCTAssertEqual([image.pixelWidth, image.pixelHeight], size, name)
            XCTAssertEqual(image.pixels[image.pixelWidth / 2, 2].r, 204, "\(name): drawn, red on top")
        }
        let imgproxy = try await get(base + "/insecure/plain/\(source)")
        XCTAssertEqual(imgproxy.headers.first(name: "Content-Type"), "image/svg+xml", "imgproxy URLs answer the sanitized SVG")
    }
}
