import Foundation
import WebImage
import WebImageCodecs
import WebImageServer
import WebImageTestSupport
import XCTest

/// A source's EXIF copyright through a real `webimage serve`: imgproxy URLs keep it by default
/// (`keep_copyright`, `--keep-copyright`), thumbor URLs only with
/// `--thumbor-preserve-exif-copyright-info` (test_base_handler_keeping_exif_copyright_tags.py,
/// with `strip_exif()` as there); a source without EXIF gets none.
final class ServeCopyrightTests: ServeTestCase {
    private let coders = ImageCoders(WebImageCodecs.defaultCoders)

    /// Whether the answer to `path` on `base` is a 200 whose EXIF names thumbor as the artist.
    private func carriesCopyright(_ base: String, _ path: String) async throws -> Bool {
        let response = try await get(base + path)
        XCTAssertEqual(response.status, 200, path)
        guard let block = EXIFBlock.find(in: response.body) else { return false }
        XCTAssertEqual(EXIF.copyright(fromTIFF: block), block, "\(path): nothing but the copyright tags")
        return String(decoding: block, as: UTF8.self).contains("thumbor")
    }

    func testCopyrightIsKeptAsEachServerDefaults() async throws {
        var options = ImageEncodeOptions()
        options.exif = EXIFSamples.copyrightSource
        let pixels = PixelBuffer(width: 60, height: 30, fill: RGBA(r: 200, g: 30, b: 30))
        origin.route("/thumbor-exif.png", .bytes(try coders.encode(Image(pixels: pixels), as: .png, options: options), contentType: "image/png"))
        origin.route("/20x20.jpg", .bytes(try coders.encode(Image(pixels: pixels), as: .jpeg), contentType: "image/jpeg"))
        let marked = origin.url("/thumbor-exif.png").absoluteString, bare = origin.url("/20x20.jpg").absoluteString
        let defaults = try await serve(["--allow-loopback-sources"])
        let preserving = try await serve(["--allow-loopback-sources", "--thumbor-preserve-exif-copyright-info", "--keep-copyright", "false"])
        let cases: [(String, String, Bool, String)] = [
            (defaults, "/unsafe/filters:strip_exif()/\(marked)", false, "test_should_not_return_exif_copyright_tags_with_copyright_tags"),
            (preserving, "/unsafe/filters:strip_exif()/\(marked)", true, "test_should_return_exif_copyright_tags"),
            (preserving, "/unsafe/\(bare)", false, "test_should_not_return_exif_copyright_tags"),
            (defaults, "/insecure/rs:fit:30:30/plain/\(marked)", true, "imgproxy keeps copyright by default"),
            (defaults, "/insecure/rs:fit:30:30/plain/\(marked)@jpg", true, "into a JPEG too"),
            (defaults, "/insecure/rs:fit:30:30/plain/\(marked)@webp", true, "into a WebP"),
            (defaults, "/insecure/rs:fit:30:30/plain/\(marked)@avif", true, "into an AVIF"),
            (preserving, "/unsafe/filters:format(webp)/\(marked)", true, "a thumbor URL's WebP"),
            (defaults, "/insecure/rs:fit:30:30/kcr:0/plain/\(marked)", false, "kcr:0"),
            (preserving, "/insecure/rs:fit:30:30/plain/\(marked)", false, "--keep-copyright false"),
            (preserving, "/insecure/rs:fit:30:30/kcr:1/plain/\(marked)", true, "kcr:1 over --keep-copyright false"),
        ]
        for (base, path, expected, name) in cases {
            let carries = try await carriesCopyright(base, path)
            XCTAssertEqual(carries, expected, name)
        }
    }
}
