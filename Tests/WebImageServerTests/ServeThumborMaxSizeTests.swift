import Foundation
import WebImage
import WebImageCodecs
import WebImageServer
import WebImageTestSupport
import XCTest

/// thumbor's `MAX_WIDTH` and `MAX_HEIGHT` (`--thumbor-max-width`, `--thumbor-max-height`), with
/// the cases of test_base_handler_with_max_dimensions.py and test_base_handler_normalize_images.py:
/// a size asked past the bound is lowered to it, and a source past it is shrunk first.
final class ServeThumborMaxSizeTests: ServeTestCase {
    private let coders = ImageCoders(WebImageCodecs.defaultCoders)

    /// A `width` × `height` JPEG served at `/name`; its URL.
    private func serveJPEG(_ name: String, width: Int, height: Int) throws -> String {
        let jpeg = try coders.encode(Image(pixels: PixelBuffer(width: width, height: height, fill: RGBA(r: 90, g: 90, b: 90))), as: .jpeg)
        origin.route("/\(name)", .bytes(jpeg, contentType: "image/jpeg"))
        return origin.url("/\(name)").absoluteString
    }

    private func size(_ base: String, _ path: String) async throws -> [Int] {
        let response = try await get(base + path)
        XCTAssertEqual(response.status, 200, path)
        let image = try coders.decode(response.body)
        return [image.pixelWidth, image.pixelHeight]
    }

    func testASizeAskedPastTheBoundIsLoweredToIt() async throws {
        let base = try await serve(["--allow-loopback-sources", "--thumbor-max-width", "150", "--thumbor-max-height", "150"])
        let grey = try serveJPEG("grayscale.jpg", width: 100, height: 100)
        let sized = try await size(base, "/unsafe/200x200/\(grey)")
        XCTAssertEqual(sized, [150, 150], "test_should_be_ok_but_150x150: lowered to the bound, then enlarged as thumbor does")
    }

    func testSourcesWithinTheBoundKeepTheirSize() async throws {
        let base = try await serve(["--allow-loopback-sources", "--thumbor-max-width", "5000", "--thumbor-max-height", "5000"])
        for (name, width, height) in [("20x20.jpg", 20, 20), ("weird_normalize_error.jpg", 159, 239)] {
            let source = try serveJPEG(name, width: width, height: height)
            let sized = try await size(base, "/unsafe/filters:format(jpeg)/\(source)")
            XCTAssertEqual(sized, [width, height], name)
        }
    }

    func testASourcePastTheBoundIsShrunkFirst() async throws {
        let base = try await serve(["--allow-loopback-sources", "--thumbor-max-height", "1"])
        let photo = try serveJPEG("image.jpg", width: 300, height: 400)
        let smart = try await size(base, "/unsafe/smart/\(photo)")
        XCTAssertEqual(smart, [1, 1], "test_can_normalize_image_loaded_from_upstream: 300 × 400 shrunk to round(0.75) × 1")
        let wide = try await serve(["--allow-loopback-sources", "--thumbor-max-width", "100", "--thumbor-max-height", "100"])
        let cropped = try await size(wide, "/unsafe/0x0:150x200/\(photo)")
        XCTAssertEqual(cropped, [38, 50], "the crop is taken in the shrunk source's pixels (75 × 100)")
        let imgproxy = try await size(wide, "/insecure/plain/\(photo)")
        XCTAssertEqual(imgproxy, [300, 400], "imgproxy URLs are not bounded")
    }

    /// test_base_handler_with_max_dimensions.py `ImageOperationsWithMaxPixels.test_should_error`
    /// and the decompression-bomb tests: a source over the pixel limit is a 400 for a thumbor
    /// URL, as thumbor answers it, and a 422 for an imgproxy URL, as imgproxy answers it.
    func testASourceOverThePixelLimitIs400ForThumbor() async throws {
        let base = try await serve(["--allow-loopback-sources", "--max-src-resolution", "0.001"])
        let grey = try serveJPEG("grayscale.jpg", width: 100, height: 100)
        let thumbor = try await get(base + "/unsafe/200x200/\(grey)")
        XCTAssertEqual(thumbor.status, 400, String(decoding: thumbor.body, as: UTF8.self))
        let imgproxy = try await get(base + "/insecure/rs:fit:200:200/plain/\(grey)")
        XCTAssertEqual(imgproxy.status, 422)
        origin.route("/image_invalid.jpg", .bytes(Data("not an image".utf8), contentType: "image/jpeg"))
        let invalid = try await get(base + "/unsafe/\(origin.url("/image_invalid.jpg").absoluteString)")
        XCTAssertEqual(invalid.status, 400, "test_getting_invalid_image_returns_bad_request")
    }

    func testTheBoundsRule() {
        let both = ThumborSourceBound(width: 150, height: 150)
        XCTAssertNil(both.shrunk(PixelSize(width: 300, height: 300)), "overshooting both sides by as much: left as it is")
        XCTAssertNil(both.shrunk(PixelSize(width: 100, height: 150)))
        XCTAssertEqual(both.shrunk(PixelSize(width: 301, height: 300)), PixelSize(width: 150, height: 150))
        XCTAssertEqual(ThumborSourceBound(width: 1000, height: 1000).shrunk(PixelSize(width: 4000, height: 3000)),
                       PixelSize(width: 1000, height: 750))
        let tall = ThumborSourceBound(width: 0, height: 10)
        XCTAssertNil(tall.shrunk(PixelSize(width: 300, height: 200)), "with no width bound, the height must overshoot by more than the width")
        XCTAssertEqual(tall.shrunk(PixelSize(width: 30, height: 200)), PixelSize(width: 2, height: 10), "round(1.5) is 2, half to even")
    }
}
