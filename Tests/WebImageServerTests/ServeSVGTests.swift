import Foundation
import WebImage
import WebImageCodecs
import WebImageTestSupport
import XCTest

/// `webimage serve` with SVG sources read from `local:///`: drawn at the size asked for (not
/// a small drawing enlarged), transparency kept, and answered as sanitized SVG when SVG or no
/// format is asked for, as imgproxy does.
final class ServeSVGTests: ServeTestCase {
    private func serveVectors(_ arguments: [String] = []) async throws -> String {
        let root = folder.appending("vectors")
        // Laid out by the first server of a test; a second one serves the same folder.
        if !FileManager.default.fileExists(atPath: root.path) {
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            let vector = Fixtures.subset.root.appendingPathComponent("vector/svg")
            for name in ["viewbox_only.svg", "bomb_billion_laughs.svg"] {
                try FileManager.default.copyItem(at: vector.appendingPathComponent(name), to: root.appendingPathComponent(name))
            }
            let hostile = ##"<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8" onload="alert(1)"><script>alert(2)</script><rect width="8" height="8" fill="#00f"/></svg>"##
            try Data(hostile.utf8).write(to: root.appendingPathComponent("script.svg"))
        }
        return try await serve(["--local-root", root.path] + arguments)
    }

    /// A 64 × 48 document at `rs:fit:400:400` as PNG: 400 × 300, drawn at that size (the
    /// rectangle's edge at column 25 of 400 goes from clear to opaque within two pixels), its
    /// transparent corners kept; a `fill` larger than the document is drawn at the fill's scale.
    func testAnSVGSourceIsDrawnAtTheRequestedSize() async throws {
        let base = try await serveVectors()
        let fit = try await get(base + "/insecure/rs:fit:400:400/f:png/plain/local:///viewbox_only.svg")
        XCTAssertEqual(fit.status, 200)
        XCTAssertEqual(fit.headers.first(name: "Content-Type"), "image/png")
        let image = try ImageCoders.shared.decode(fit.body)
        XCTAssertEqual(PixelSize(width: image.pixelWidth, height: image.pixelHeight), PixelSize(width: 400, height: 300))
        XCTAssertEqual(image.pixels[1, 1].a, 0, "the corner outside the rounded rectangle stays transparent")
        XCTAssertEqual(image.pixels[23, 150].a, 0)
        XCTAssertEqual(image.pixels[26, 150].a, 255, "a sharp edge, not an enlarged 64-pixel drawing")
        let fill = try await get(base + "/insecure/rs:fill:300:300/f:png/plain/local:///viewbox_only.svg")
        XCTAssertEqual(fill.status, 200)
        let filled = try ImageCoders.shared.decode(fill.body)
        XCTAssertEqual(PixelSize(width: filled.pixelWidth, height: filled.pixelHeight), PixelSize(width: 300, height: 300))
        // Drawn 400 × 300, cropped to the centre: the left edge (x = 4 of 64, 25 px) is at column -25.
        XCTAssertEqual(filled.pixels[150, 1].a, 0, "the top margin of the drawing is there, sharp")
        XCTAssertEqual(filled.pixels[150, 26].a, 255)
    }

    /// No format, or `f:svg`: the source as SVG with its script and handler removed, under
    /// imgproxy's `Content-Security-Policy` (no script, no fetch, a sandbox) and `nosniff`, as
    /// every answer; the memory hit's answer (the second request) says the same.
    func testSVGIsAnsweredSanitizedWhenSVGOrNoFormatIsAsked() async throws {
        let base = try await serveVectors()
        for path in ["/insecure/plain/local:///script.svg", "/insecure/rs:fit:100:100/f:svg/plain/local:///script.svg",
                     "/insecure/plain/local:///script.svg"] {
            let response = try await get(base + path)
            XCTAssertEqual(response.status, 200, path)
            XCTAssertEqual(response.headers.first(name: "Content-Type"), "image/svg+xml", path)
            XCTAssertEqual(response.headers.first(name: "Content-Security-Policy"),
                           "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox", path)
            XCTAssertEqual(response.headers.first(name: "X-Content-Type-Options"), "nosniff", path)
            let body = String(decoding: response.body, as: UTF8.self)
            XCTAssertTrue(body.contains(##"<rect width="8" height="8" fill="#00f"/>"##), body)
            XCTAssertFalse(body.contains("alert"), body)
        }
        let png = try await get(base + "/insecure/plain/local:///script.svg@png")
        XCTAssertEqual(png.headers.first(name: "Content-Type"), "image/png")
        XCTAssertEqual(png.headers.first(name: "X-Content-Type-Options"), "nosniff")
        let missing = try await get(base + "/insecure/plain/local:///missing.svg")
        XCTAssertEqual(missing.status, 404)
        XCTAssertEqual(missing.headers.first(name: "X-Content-Type-Options"), "nosniff", "an error's text too")
        XCTAssertEqual(try ImageCoders.shared.decode(png.body).pixels[4, 4], RGBA(r: 0, g: 0, b: 255))
    }

    /// imgproxy's TestAlwaysRasterizeSvg, …WithEnforceWebP, …Disabled, …WithFormat: with
    /// `--always-rasterize-svg`, a URL naming no format gets the drawing in PNG (or the format
    /// `Accept` chooses); one naming SVG still gets SVG.
    func testAlwaysRasterizeSVG() async throws {
        let base = try await serveVectors(["--always-rasterize-svg", "--enforce-webp"])
        let drawn = try await get(base + "/insecure/rs:fill:40:40/plain/local:///script.svg")
        XCTAssertEqual(drawn.headers.first(name: "Content-Type"), "image/png")
        let image = try ImageCoders.shared.decode(drawn.body)
        XCTAssertEqual([image.pixelWidth, image.pixelHeight], [40, 40])
        XCTAssertEqual(image.pixels[20, 20], RGBA(r: 0, g: 0, b: 255))
        let webp = try await get(base + "/insecure/plain/local:///script.svg", headers: [("Accept", "image/webp")])
        XCTAssertEqual(webp.headers.first(name: "Content-Type"), "image/webp")
        let named = try await get(base + "/insecure/plain/local:///script.svg@svg")
        XCTAssertEqual(named.headers.first(name: "Content-Type"), "image/svg+xml")
        let plain = try await serveVectors(["--enforce-webp"])
        let kept = try await get(plain + "/insecure/plain/local:///script.svg")
        XCTAssertEqual(kept.headers.first(name: "Content-Type"), "image/svg+xml")
        // TestErrorSavingToSVG: a raster source cannot be answered as SVG.
        try ImgproxyTestImages.png(ImgproxyTestImages.geometry).write(to: folder.appending("vectors/raster.png"))
        let raster = try await get(plain + "/insecure/rs:fill:4:4/plain/local:///raster.png@svg")
        XCTAssertEqual(raster.status, 422)
    }

    /// An entity bomb is refused with 422 and a line saying why, quickly.
    func testAnSVGBombIsUnprocessable() async throws {
        let base = try await serveVectors()
        let started = ContinuousClock.now
        for path in ["/insecure/rs:fit:100:100/f:png/plain/local:///bomb_billion_laughs.svg",
                     "/insecure/plain/local:///bomb_billion_laughs.svg"] {
            let response = try await get(base + path)
            XCTAssertEqual(response.status, 422, path)
        }
        XCTAssertLessThan(started.duration(to: .now), .seconds(5))
    }
}
