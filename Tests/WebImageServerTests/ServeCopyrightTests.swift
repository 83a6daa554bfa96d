import Foundation
import WebImage
import WebImageCodecs
import WebImageServer
import WebImageTestSupport
import XCTest

/// A source's EXIF copyright through a real `webimage serve`: imgproxy URLs keep it by default
/// (`keep_copyright`, `--keep-copyright`), thumbor URLs only with
/// `--thumbor-preserve-exif-copyright-info` (test_base_handler_keeping_exif_copyright_tags.py,
/// with `strip_exif()` as there); a source without EXIF gets none. With metadata kept
/// (`sm:0`, `--strip-metadata false`, thumbor's `--thumbor-preserve-exif-info`), the whole block
/// is carried, made true of the upright result.
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

    func testTheWholeBlockIsKeptUprightWhenMetadataIsNotStripped() async throws {
        origin.route("/photoshop.jpg", .bytes(try Fixtures.imageData("jpeg/pil_pil_sample_cmyk.jpg"), contentType: "image/jpeg"))
        origin.route("/turned.jpg", .bytes(try Fixtures.imageData("jpeg/pil_hopper_orientation_6.jpg"), contentType: "image/jpeg"))
        let photoshop = origin.url("/photoshop.jpg").absoluteString, turned = origin.url("/turned.jpg").absoluteString
        let defaults = try await serve(["--allow-loopback-sources"])
        let keeping = try await serve(["--allow-loopback-sources", "--strip-metadata", "false", "--thumbor-preserve-exif-info"])
        /// The EXIF fields of the answer to `path`, by name; empty when it carries no block.
        func fields(_ base: String, _ path: String) async throws -> [String: String] {
            let response = try await get(base + path)
            XCTAssertEqual(response.status, 200, path)
            guard let block = EXIFBlock.find(in: response.body) else { return [:] }
            XCTAssertNil(block.firstRange(of: [0xFF, 0xD8, 0xFF]), "\(path): no thumbnail left")
            return Dictionary(EXIFField.fields(fromTIFF: block).map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        }
        for (base, path) in [(defaults, "/insecure/rs:fit:40:30/sm:0/plain/\(photoshop)"),
                             (keeping, "/insecure/rs:fit:40:30/plain/\(photoshop)@webp"),
                             (keeping, "/insecure/rs:fit:40:30/plain/\(photoshop)@png"),
                             (keeping, "/unsafe/30x30/\(photoshop)")] {
            let kept = try await fields(base, path)
            XCTAssertEqual(kept["Software"], "Adobe Photoshop CS Macintosh", path)
            XCTAssertEqual(kept["Orientation"], "1", path)
            XCTAssertEqual(kept["PixelXDimension"], "30", path)
            XCTAssertEqual(kept["PixelYDimension"], "30", path)
        }
        let stripped = try await fields(defaults, "/insecure/rs:fit:40:30/plain/\(photoshop)")
        XCTAssertNil(stripped["Software"], "stripped by default, but the copyright tags")
        XCTAssertNotNil(stripped["DateTime"])
        let strippedByFilter = try await fields(keeping, "/unsafe/30x30/filters:strip_exif()/\(photoshop)")
        XCTAssertNil(strippedByFilter["Software"], "thumbor's strip_exif()")
        let overridden = try await fields(keeping, "/insecure/rs:fit:40:30/sm:1/kcr:0/plain/\(photoshop)")
        XCTAssertTrue(overridden.isEmpty, "sm:1 over --strip-metadata false")
        // A turned source is answered upright, and its kept block says so.
        let upright = try await get(keeping + "/insecure/rs:fit:64:64/plain/\(turned)")
        XCTAssertEqual(EXIF.orientation(fromTIFF: try XCTUnwrap(EXIFBlock.find(in: upright.body))), .up)
        let plain = try await get(defaults + "/insecure/rs:fit:64:64/plain/\(turned)")
        XCTAssertEqual(try coders.decode(upright.body).pixels.width, try coders.decode(plain.body).pixels.width)
    }
}
