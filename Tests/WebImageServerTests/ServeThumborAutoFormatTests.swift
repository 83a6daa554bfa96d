import Foundation
import WebImage
import WebImageCodecs
import WebImageServer
import WebImageTestSupport
import XCTest

/// thumbor's auto formats (tests/handlers/test_base_handler_with_auto_webp.py, _auto_avif.py,
/// _auto_png.py, _auto_heif.py, _auto_jpg.py, _auto_png_to_jpg.py, _with_cover.py) through a
/// real `webimage serve` with `--auto-webp`, `--auto-avif`, `--auto-png`, `--auto-heif`,
/// `--auto-jpg` or `--auto-png-to-jpg`: a thumbor URL naming no format is answered in the
/// format `Accept` lists, with `Vary: Accept`; a `format` filter wins and nothing varies; an
/// unknown format is ignored, so the answer varies; an animated GIF stays a GIF and varies by
/// nothing; a transparent image never becomes JPEG. thumbor answers HEIF as `image/heif`, this
/// server as `image/heic`.
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
            ("image.avif", try coders.encode(Image(pixels: ImgproxyTestImages.geometry), as: .avif), "image/avif"),
            ("opaque.png", try ImgproxyTestImages.png(ImgproxyTestImages.geometry), "image/png"),
            ("transparent.png", try ImgproxyTestImages.png(ImgproxyTestImages.bands(bottom: .clear)), "image/png"),
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
        try await check(base, accept: "image/\(format.rawValue),*/*;q=0.8", rows: rows)
    }

    /// Checks each of `rows` asked with `accept` as the `Accept` field (nil: none sent).
    private func check(_ base: String, accept: String?, rows: [(String, String, ImageFormat, Bool, String)]) async throws {
        for (parts, image, expected, varies, name) in rows {
            let answer = try await get(base + "/unsafe/\(parts)\(try XCTUnwrap(sources[image]))", headers: accept.map { [("Accept", $0)] } ?? [])
            XCTAssertEqual(answer.status, 200, name)
            XCTAssertEqual(answer.headers.first(name: "Content-Type"), "image/\(expected.rawValue)", "\(name), \(accept ?? "no Accept")")
            XCTAssertEqual(ImageFormat(detecting: answer.body), expected, "\(name), \(accept ?? "no Accept")")
            XCTAssertEqual(answer.headers.first(name: "Vary")?.contains("Accept") ?? false, varies, name)
            XCTAssertNotNil(answer.headers.first(name: "ETag"), "\(name): test_converting_return_etags")
        }
    }

    func testAutoWebP() async throws {
        let base = try await serve(["--allow-loopback-sources", "--auto-webp"])
        try await check(base, accepting: .webp, rows: rows(.webp))
        // A type listed with q=0 is refused, not accepted.
        let refused = try await get(base + "/unsafe/\(try XCTUnwrap(sources["image.jpg"]))", headers: [("Accept", "image/webp;q=0, */*")])
        XCTAssertEqual(refused.headers.first(name: "Content-Type"), "image/jpeg")
    }

    /// tests/handlers/test_base_handler_with_cover.py: `cover()` answers an animated GIF's first
    /// frame, still a GIF.
    func testCoverIsTheFirstFrame() async throws {
        let base = try await serve(["--allow-loopback-sources", "--auto-webp"])
        let answer = try await get(base + "/unsafe/filters:cover()/\(try XCTUnwrap(sources["animated.gif"]))")
        XCTAssertEqual(answer.status, 200)
        XCTAssertEqual(answer.headers.first(name: "Content-Type"), "image/gif")
        let cover = try ImageCoders.shared.decode(answer.body)
        XCTAssertEqual(cover.frames.count, 1)
        XCTAssertEqual(cover.pixels[20, 20], RGBA(r: 255, g: 0, b: 0))
    }

    func testAutoPNG() async throws {
        let base = try await serve(["--allow-loopback-sources", "--auto-png"])
        try await check(base, accepting: .png, rows: rows(.png) + [("", "image.heic", .png, true, "test_can_auto_convert_heic_to_png")])
    }

    func testAutoHEIF() async throws {
        let base = try await serve(["--allow-loopback-sources", "--auto-heif"])
        try await check(base, accept: "image/heif,*/*;q=0.8",
                        rows: rows(.heic).filter { !$0.0.contains("format(heic)") }
                            + [("", "image.avif", .heic, true, "test_can_auto_convert_avif_to_heif")])
    }

    /// _auto_jpg.py: every row with `Accept: */*`, `image/jpg` and `image/jpeg` (each at
    /// q=0.8); `autojpg(false)` does not turn AUTO_JPG off; a transparent PNG stays PNG.
    func testAutoJPG() async throws {
        let base = try await serve(["--allow-loopback-sources", "--auto-jpg"])
        let rows: [(String, String, ImageFormat, Bool, String)] = [
            ("", "image.avif", .jpeg, true, "test_can_auto_convert_avif_to_jpg"),
            ("", "image.heic", .jpeg, true, "test_can_auto_convert_heic_to_jpg"),
            ("", "animated.gif", .gif, false, "test_should_not_convert_animated_gifs_to_jpg"),
            ("0x0:1681x596/1x/", "image.jpg", .jpeg, true, "test_should_convert_image_with_small_width_and_no_height_to_jpg"),
            ("", "grayscale.jpg", .jpeg, true, "test_should_convert_monochromatic_jpeg_to_jpg"),
            ("", "cmyk.jpg", .jpeg, true, "test_should_convert_cmyk_jpeg_to_jpg"),
            ("filters:format(png)/", "cmyk.jpg", .png, false, "test_shouldnt_convert_to_cmyk_to_jpg_if_format_specified"),
            ("filters:format(gif)/", "cmyk.jpg", .gif, false, "test_shouldnt_convert_cmyk_to_jpg_if_gif"),
            ("filters:format(gif)/", "image.jpg", .gif, false, "test_shouldnt_convert_gif_to_jpg_if_format_specified"),
            ("filters:format(asdf)/", "image.jpg", .jpeg, true, "test_should_convert_to_jpg_if_format_invalid"),
        ]
        for accept in ["*/*;q=0.8", "image/jpg;q=0.8", "image/jpeg;q=0.8"] {
            try await check(base, accept: accept, rows: rows)
        }
        try await check(base, accept: "image/jpeg;q=0.8", rows: [
            ("filters:autojpg(false)/", "opaque.png", .jpeg, true, "test_autojpg_false_does_not_disable_auto_jpg"),
            ("", "transparent.png", .png, true, "test_should_not_convert_to_jpg_if_image_has_transparency_with_accept_jpeg"),
        ])
    }

    /// _auto_png_to_jpg.py: without `Accept`, an opaque PNG is answered in JPEG and a transparent
    /// one stays PNG, and nothing varies; with AUTO_WEBP, WebP wins for both when `Accept` lists
    /// it; `autojpg(true|false)` decides per URL. Without a preference, thumbor ranks the JPEG of
    /// an opaque PNG with AUTO_JPG, before HEIC and PNG.
    func testAutoPNGToJPG() async throws {
        let base = try await serve(["--allow-loopback-sources", "--auto-png-to-jpg"])
        try await check(base, accept: nil, rows: [
            ("", "opaque.png", .jpeg, false, "test_should_auto_convert_png_to_jpg"),
            ("", "transparent.png", .png, false, "test_shouldnt_auto_convert_png_to_jpg_if_png_has_transparency"),
            ("filters:autojpg(false)/", "opaque.png", .png, false, "test_shouldnt_auto_convert_png_to_jpg_with_autojpg_false"),
        ])
        let webp = try await serve(["--allow-loopback-sources", "--auto-png-to-jpg", "--auto-webp"])
        try await check(webp, accept: "image/webp,*/*;q=0.8", rows: [
            ("", "opaque.png", .webp, true, "test_should_auto_convert_png_to_webp_if_auto_webp_is_true"),
            ("", "transparent.png", .webp, true, "test_should_auto_convert_png_to_webp_if_auto_webp_is_true_and_png_has_transparency"),
        ])
        let turnedOn = try await serve(["--allow-loopback-sources"])
        try await check(turnedOn, accept: nil, rows: [
            ("filters:autojpg(true)/", "opaque.png", .jpeg, false, "test_should_auto_convert_png_to_jpg_with_autojpg_true"),
            ("", "opaque.png", .png, false, "without the setting"),
        ])
        let ranked = try await serve(["--allow-loopback-sources", "--auto-png-to-jpg", "--auto-png", "--auto-heif"])
        try await check(ranked, accept: "image/png,image/heif", rows: [
            ("", "opaque.png", .jpeg, true, "PNG to JPEG before AUTO_HEIF and AUTO_PNG"),
            ("", "transparent.png", .heic, true, "a transparent PNG goes on to AUTO_HEIF"),
            ("", "image.jpg", .heic, true, "a JPEG source goes on to AUTO_HEIF"),
        ])
        let rankedImgproxy = try await get(ranked + "/insecure/plain/\(try XCTUnwrap(sources["opaque.png"]))", headers: [("Accept", "image/png,image/heif")])
        XCTAssertEqual(ImageFormat(detecting: rankedImgproxy.body), .heic, "AUTO_PNG_TO_JPG is thumbor's: an imgproxy URL takes HEIC")
    }

    /// test_base_handler_with_auto_image_format_preference.py: `--auto-image-format-preference`
    /// orders the formats whatever `Accept`'s order, replaces the `--auto-*` flags, refuses a
    /// format listed with q=0, leaves the source's format when none matches (still varying), and
    /// keeps `--auto-png-to-jpg` as the last resort after it, which `autojpg` turns on or off.
    func testAutoImageFormatPreference() async throws {
        let ordered = try await serve(["--allow-loopback-sources", "--auto-webp", "--auto-avif", "--auto-image-format-preference", "avif,webp,jpg,png"])
        try await check(ordered, accept: "image/webp,image/avif,*/*;q=0.8",
                        rows: [("", "image.jpg", .avif, true, "test_can_auto_convert_to_avif")])
        try await check(ordered, accept: "image/avif;q=0,image/webp;q=0.8",
                        rows: [("", "image.jpg", .webp, true, "test_skips_preferred_format_rejected_with_quality_zero")])
        try await check(ordered, accept: "image/webp,image/avif,*/*;q=0.8",
                        rows: [("", "image.jpg", .avif, true, "test_put_and_get_keep_accept_variants_separate: each Accept its own entry")])
        try await check(ordered, accept: "image/tiff",
                        rows: [("", "image.jpg", .jpeg, true, "test_falls_back_to_engine_extension_when_no_match_exists")])
        let legacy = try await serve(["--allow-loopback-sources", "--auto-webp", "--auto-avif"])
        try await check(legacy, accept: "image/webp,image/avif,*/*;q=0.8",
                        rows: [("", "image.jpg", .webp, true, "test_can_auto_convert_to_webp: without a preference, WebP before AVIF")])
        let imgproxy = try await get(legacy + "/insecure/plain/\(try XCTUnwrap(sources["image.jpg"]))", headers: [("Accept", "image/webp,image/avif")])
        XCTAssertEqual(ImageFormat(detecting: imgproxy.body), .avif, "imgproxy URLs keep imgproxy's order, AVIF before WebP")
        let override = try await serve(["--allow-loopback-sources", "--auto-image-format-preference", " WebP ,webp"])
        try await check(override, accept: "image/webp,*/*;q=0.8",
                        rows: [("", "image.jpg", .webp, true, "test_preference_overrides_auto_flags")])
        let jpg = try await serve(["--allow-loopback-sources", "--auto-image-format-preference", "jpg"])
        try await check(jpg, accept: "image/jpeg", rows: [
            ("filters:autojpg(false)/", "opaque.png", .jpeg, true, "test_autojpg_false_does_not_override_explicit_jpg_preference"),
        ])
        let fallback = try await serve(["--allow-loopback-sources", "--auto-png-to-jpg", "--auto-image-format-preference", "webp"])
        try await check(fallback, accept: "image/webp", rows: [("", "opaque.png", .webp, true, "test_preferred_format_wins_over_auto_png_to_jpg")])
        try await check(fallback, accept: "image/png", rows: [
            ("", "opaque.png", .jpeg, true, "test_auto_png_to_jpg_is_fallback_after_preference"),
            ("filters:autojpg(false)/", "opaque.png", .png, true, "test_autojpg_false_disables_only_png_to_jpg_fallback"),
            ("filters:autojpg(true)/", "opaque.png", .jpeg, true, "test_autojpg_true_keeps_png_to_jpg_fallback_enabled"),
        ])
        await assertServeRefused(["--auto-image-format-preference", "webp,bmp"], "a name that is no auto format stops the start")
    }

    /// The preference file's module-level cases (`resolve_preferred_extension`), black-box: each
    /// format alone is chosen when accepted; a format `Accept` does not list is skipped; JPEG is
    /// skipped for a transparent image and every format for an animated one (both keep their own).
    func testEachPreferredFormatResolves() async throws {
        let everything = "image/webp,image/avif,image/jpeg,image/heif,image/png"
        for (name, format) in [("webp", ImageFormat.webp), ("avif", .avif), ("jpg", .jpeg), ("heif", .heic), ("png", .png)] {
            let base = try await serve(["--allow-loopback-sources", "--auto-image-format-preference", name])
            try await check(base, accept: everything, rows: [("", "cmyk.jpg", format, true, "test_resolves_every_supported_preferred_format[\(name)]")])
        }
        let skipping = try await serve(["--allow-loopback-sources", "--auto-image-format-preference", "avif,webp"])
        try await check(skipping, accept: "image/webp", rows: [("", "image.jpg", .webp, true, "test_skips_unsupported_preferred_format")])
        let jpg = try await serve(["--allow-loopback-sources", "--auto-image-format-preference", "jpg"])
        try await check(jpg, accept: everything, rows: [("", "transparent.png", .png, true, "test_skips_jpg_for_transparent_image")])
        let animated = try await serve(["--allow-loopback-sources", "--auto-image-format-preference", "webp,png"])
        try await check(animated, accept: everything, rows: [("", "animated.gif", .gif, false, "test_skips_preferred_formats_for_multiple_images")])
    }

    func testAutoAVIF() async throws {
        let base = try await serve(["--allow-loopback-sources", "--auto-avif"])
        try await check(base, accepting: .avif, rows: rows(.avif) + [("", "image.heic", .avif, true, "test_can_auto_convert_heic_to_avif")])
    }
}
