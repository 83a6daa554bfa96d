import Foundation
import WebImage
import WebImageCodecs
import WebImageServer
import WebImageTestSupport
import XCTest

/// TIFF sources through a real `webimage serve` (the decoding itself is checked against Pillow in
/// `TIFFCoderTests`): answered as PNG unless a format is asked, as thumbor's test_base_handler.py
/// expects (imgproxy would pick JPEG for an opaque one; one rule keeps both forms one cache
/// entry), and written as TIFF with `@tiff`.
final class ServeTIFFSourceTests: ServeTestCase {
    private let coders = ImageCoders(WebImageCodecs.defaultCoders)

    /// A 60 × 40 TIFF, opaque or with a transparent left half, served at `/name`; its URL.
    private func serveTIFF(_ name: String, transparent: Bool) throws -> String {
        var pixels = PixelBuffer(width: 60, height: 40, fill: RGBA(r: 30, g: 120, b: 220))
        if transparent {
            for y in 0..<40 { for x in 0..<30 { pixels[x, y] = .clear } }
        }
        origin.route("/\(name)", .bytes(try coders.encode(Image(pixels: pixels), as: .tiff), contentType: "image/tiff"))
        return origin.url("/\(name)").absoluteString
    }

    func testThumborAnswersATIFFAsPNG() async throws {
        let base = try await serve(["--allow-loopback-sources"])
        let source = try serveTIFF("gradient_8bit.tif", transparent: false)
        let response = try await get(base + "/unsafe/\(source)")
        XCTAssertEqual(response.status, 200, String(decoding: response.body, as: UTF8.self))
        XCTAssertEqual(response.headers.first(name: "Content-Type"), "image/png")
        let image = try coders.decode(response.body)
        XCTAssertEqual([image.pixelWidth, image.pixelHeight], [60, 40])
        XCTAssertEqual(image.pixels[10, 10], RGBA(r: 30, g: 120, b: 220))
        let resized = try await get(base + "/unsafe/30x0/\(source)")
        XCTAssertEqual(resized.headers.first(name: "Content-Type"), "image/png")
        XCTAssertEqual(try coders.decode(resized.body).pixelWidth, 30)
    }

    func testImgproxyURLsAnswerPNGOrTheFormatAsked() async throws {
        let base = try await serve(["--allow-loopback-sources"])
        let opaque = try serveTIFF("opaque.tiff", transparent: false), clear = try serveTIFF("clear.tiff", transparent: true)
        let cases: [(String, String)] = [
            ("/insecure/rs:fit:30:30/plain/\(opaque)", "image/png"),
            ("/insecure/rs:fit:30:30/plain/\(opaque)@jpg", "image/jpeg"),
            ("/insecure/rs:fit:30:30/plain/\(clear)", "image/png"),
            ("/insecure/rs:fit:30:30/plain/\(opaque)@tiff", "image/tiff"),
            ("/insecure/rs:fit:30:30/plain/\(clear)@webp", "image/webp"),
        ]
        for (path, type) in cases {
            let response = try await get(base + path)
            XCTAssertEqual(response.status, 200, path)
            XCTAssertEqual(response.headers.first(name: "Content-Type"), type, path)
            let image = try coders.decode(response.body)
            XCTAssertEqual([image.pixelWidth, image.pixelHeight], [30, 20], path)
        }
        let written = try coders.decode(try await get(base + "/insecure/rs:fit:30:30/plain/\(clear)@tiff").body)
        XCTAssertEqual(written.format, .tiff)
        XCTAssertEqual(written.pixels[2, 10].a, 0, "TIFF keeps the alpha")
        XCTAssertEqual(written.pixels[25, 10], RGBA(r: 30, g: 120, b: 220))
    }
}
