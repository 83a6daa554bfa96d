import Foundation
import WebImage
import WebImageCodecs
import WebImageServer
import WebImageTestSupport
import XCTest

/// thumbor's `AUTO_WEBP` and `AUTO_AVIF` (tests/handlers/test_base_handler_with_auto_webp.py and
/// _with_auto_avif.py) through a real `webimage serve` with `--auto-webp` or `--auto-avif`: a
/// thumbor URL naming no format is answered in the format `Accept` lists, with `Vary: Accept`;
/// a `format` filter wins and nothing varies; an unknown format is ignored, so the answer
/// varies; an animated GIF stays a GIF and varies by nothing.
final class ServeThumborAutoFormatTests: ServeTestCase {
    private var sources: [String: String] = [:]

    override func setUp() async throws {
        try await super.setUp()
        let coders = ImageCoders(WebImageCodecs.defaultCoders)
        let frames = [RGBA(r: 255, g: 0, b: 0), RGBA(r: 0, g: 0, b: 255)].map {
            ImageFrame(pixels: PixelBuffer(width: 40, height: 40, fill: $0), duration: 0.1)
        }
        let files: [(String, Data, String)] = [
            ("image.jpg", try Fixtures.benchData("testjfif_256.jpg"), "image/jpeg"),
            ("grayscale.jpg", try Fixtures.imageData("jpeg/sd_MonochromeTestImage.jpg"), "image/jpeg"),
            ("cmyk.jpg", try Fixtures.imageData("jpeg/pil_pil_sample_cmyk.jpg"), "image/jpeg"),
            ("animated.gif", try coders.encode(Image(frames: frames), as: .gif), "image/gif"),
            ("image.heic", try coders.encode(Image(pixels: ImgproxyTestImages.geometry), as: .heic), "image/heic"),
        ]
        for (name, data, type) in files {
            origin.route("/\(name)", .bytes(data, contentType: type))
            sources[name] = origin.url("/\(name)").absoluteString
        }
    }

    /// The rows both files share, for `format`: the URL's parts before the image, the image, the
    /// format answered and whether it varies by `Accept`.
    private func rows(_ format: ImageFormat) -> [(String, String, ImageFormat, Bool, String)] {
        [
            ("", "image.jpg", format, true, "test_can_auto_convert_jpeg"),
            ("", "animated.gif", .gif, false, "test_should_not_convert_animated_gifs"),
            ("0x0:1681x596/1x/", "image.jpg", format, true, "test_should_convert_image_with_small_width_and_no_height"),
            ("", "grayscale.jpg", format, true, "test_should_convert_monochromatic_jpeg"),
            ("", "cmyk.jpg", format, true, "test_should_convert_cmyk_jpeg"),
            ("filters:format(png)/", "cmyk.jpg", .png, false, "test_shouldnt_convert_cmyk_jpeg_if_format_specified"),
            ("filters:format(gif)/", "cmyk.jpg", .gif, false, "test_shouldnt_convert_cmyk_jpeg_if_gif"),
            ("filters:format(gif)/", "image.jpg", .gif, false, "test_shouldnt_convert_if_format_specified"),
            ("filters:format(\(format.rawValue))/", "image.jpg", format, false, "test_shouldnt_add_vary_if_format_specified"),
            ("filters:format(asdf)/", "image.jpg", format, true, "test_should_add_vary_if_format_invalid"),
        ]
    }

    private func check(_ base: String, accepting format: ImageFormat, rows: [(String, String, ImageFormat, Bool, String)]) async throws {
        for (parts, image, expected, varies, name) in rows {
            let answer = try await get(base + "/unsafe/\(parts)\(try XCTUnwrap(sources[image]))",
                                       headers: [("Accept", "image/\(format.rawValue),*/*;q=0.8")])
            XCTAssertEqual(answer.status, 200, name)
            XCTAssertEqual(answer.headers.first(name: "Content-Type"), "image/\(expected.rawValue)", name)
            XCTAssertEqual(ImageFormat(detecting: answer.body), expected, name)
            XCTAssertEqual(answer.headers.first(name: "Vary")?.contains("Accept") ?? false, varies, name)
            XCTAssertNotNil(answer.headers.first(name: "ETag"), "\(name): test_converting_return_etags")
        }
    }

    func testAutoWebP() async throws {
        let base = try serve(["--allow-loopback-sources", "--auto-webp"])
        try await check(base, accepting: .webp, rows: rows(.webp))
        // A type listed with q=0 is refused, not accepted.
        let refused = try await get(base + "/unsafe/\(try XCTUnwrap(sources["image.jpg"]))", headers: [("Accept", "image/webp;q=0, */*")])
        XCTAssertEqual(refused.headers.first(name: "Content-Type"), "image/jpeg")
    }

    /// tests/handlers/test_base_handler_with_cover.py: `cover()` answers an animated GIF's first
    /// frame, still a GIF.
    func testCoverIsTheFirstFrame() async throws {
        let base = try serve(["--allow-loopback-sources", "--auto-webp"])
        let answer = try await get(base + "/unsafe/filters:cover()/\(try XCTUnwrap(sources["animated.gif"]))")
        XCTAssertEqual(answer.status, 200)
        XCTAssertEqual(answer.headers.first(name: "Content-Type"), "image/gif")
        let cover = try ImageCoders.shared.decode(answer.body)
        XCTAssertEqual(cover.frames.count, 1)
        XCTAssertEqual(cover.pixels[20, 20], RGBA(r: 255, g: 0, b: 0))
    }

    func testAutoAVIF() async throws {
        let base = try serve(["--allow-loopback-sources", "--auto-avif"])
        try await check(base, accepting: .avif, rows: rows(.avif) + [("", "image.heic", .avif, true, "test_can_auto_convert_heic_to_avif")])
    }
}
