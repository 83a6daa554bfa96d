@testable import WebImageServer
import WebImage
import XCTest

/// `Accept` read as thumbor's tests/test_context.py reads it: qualities, case, quoted
/// separators, a range narrowed by another parameter, wildcards and the JPEG alias; and
/// imgproxy's rule that WebP, AVIF and JPEG XL are taken only by name.
final class AcceptedMediaRangesTests: XCTestCase {
    private let formats: [ImageFormat] = [.webp, .avif, .heic, .png, .jpeg]

    /// The formats of ``formats`` that `accept` takes, read for thumbor URLs.
    private func taken(_ accept: String) -> Set<ImageFormat> {
        let ranges = AcceptedMediaRanges([accept])
        return Set(formats.filter { ranges.accept($0, imageWildcard: true) })
    }

    func testThumborContextTable() {
        let rows: [(String, Set<ImageFormat>, String)] = [
            ("image/webp,image/avif,image/heif,image/png,image/jpeg", [.webp, .avif, .heic, .png, .jpeg], "test_can_get_params_from_request"),
            ("IMAGE/AVIF;Q=0, IMAGE/WEBP;Q=0.8, image/png;q=0", [.webp], "test_accept_header_respects_quality_and_is_case_insensitive"),
            ("image/jpeg;q=0,*/*;q=0.8", [], "test_explicit_jpeg_rejection_overrides_accept_any"),
            ("*/*;q=0.8", [.jpeg], "test_accept_any_keeps_legacy_jpeg_support"),
            ("image/*;q=0.8", [.webp, .avif, .heic, .png, .jpeg], "test_image_wildcard_accepts_image_formats"),
            ("image/*;q=0,*/*;q=0.8", [], "test_image_wildcard_rejection_overrides_accept_any"),
            ("image/webp;profile=\"a,b;c\";q=0,image/jpeg", [.jpeg], "test_accept_header_parses_quoted_delimiters_before_quality"),
            ("image/webp;profile=foo;q=1,image/webp;q=0", [], "test_unparameterized_media_range_controls_default_representation"),
            ("image/jpeg;q=0,image/jpg;q=1", [], "test_canonical_jpeg_rejection_takes_precedence_over_jpg_alias"),
            ("", [], "an empty field takes nothing"),
            ("image/png;q=2, image/webp;q=nan, image/avif;q=x", [], "a quality outside 0…1 or not a number is 0"),
            ("image/avif;level=1, image/png;q=0.5;level=1", [.png], "a parameter after q keeps the range"),
        ]
        for (accept, expected, name) in rows {
            XCTAssertEqual(taken(accept), expected, "\(name): \(accept)")
        }
    }

    func testImgproxyTakesWebPAVIFAndJPEGXLOnlyByName() {
        let ranges = AcceptedMediaRanges(["image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5"])
        for format in [ImageFormat.webp, .avif, .jxl] {
            XCTAssertFalse(ranges.accept(format, imageWildcard: false), "\(format)")
            XCTAssertTrue(ranges.accept(format, imageWildcard: true), "\(format)")
        }
        XCTAssertTrue(AcceptedMediaRanges(["image/avif", "image/webp"]).accept(.webp, imageWildcard: false), "several fields are read together")
    }
}
