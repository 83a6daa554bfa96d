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
        let base = try await serve(["--allow-loopback-sources"])
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

    /// `Commons-logo-inches.svg` (10 × 13 inches) with thumbor's test `SVG_DPI = 200`
    /// (`--svg-dpi 200`), and at CSS's 96 without it.
    func testAbsoluteUnitsCountAtTheConfiguredDPI() async throws {
        let svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="10in" height="13in" viewBox="0 0 10 13">\
            <rect width="10" height="13" fill="#0c0"/></svg>
            """
        origin.route("/Commons-logo-inches.svg", .bytes(Data(svg.utf8), contentType: "image/svg+xml"))
        let source = origin.url("/Commons-logo-inches.svg").absoluteString
        let thumbor = try await serve(["--allow-loopback-sources", "--svg-dpi", "200"])
        let css = try await serve(["--allow-loopback-sources"])
        let cases: [(String, String, [Int], String)] = [
            (thumbor, "/unsafe/\(source)", [2000, 2600], "test_can_read_image_svg_with_inch_units_and_convert_png"),
            (thumbor, "/unsafe/400x500/\(source)", [400, 500], "test_svg_with_inch_units_and_convert_to_png_with_size"),
            (css, "/unsafe/\(source)", [960, 1248], "at 96 dpi by default"),
        ]
        for (base, path, size, name) in cases {
            let response = try await get(base + path)
            XCTAssertEqual(response.status, 200, name)
            let image = try ImageCoders.shared.decode(response.body)
            XCTAssertEqual([image.pixelWidth, image.pixelHeight], size, name)
        }
    }
}
