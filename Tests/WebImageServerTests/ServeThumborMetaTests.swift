import Foundation
import WebImage
import WebImageCodecs
import WebImageServer
import WebImageTestSupport
import XCTest

/// thumbor's `meta` JSON and the focal points (`focal`, `extract_focal`) through a real
/// `webimage serve` on loopback, with the numbers of thumbor's handler, transformer and filter tests.
final class ServeThumborMetaTests: ServeTestCase {
    /// The `thumbor` object of the JSON `path` answers, after checking it is a 200 of `application/json`.
    private func meta(_ base: String, _ path: String, file: StaticString = #filePath, line: UInt = #line) async throws -> [String: Any] {
        let response = try await get(base + path)
        XCTAssertEqual(response.status, 200, String(decoding: response.body, as: UTF8.self), file: file, line: line)
        XCTAssertEqual(response.headers.first(name: "Content-Type"), "application/json", file: file, line: line)
        let object = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        return try XCTUnwrap(object?["thumbor"] as? [String: Any], file: file, line: line)
    }

    /// test_base_handler_with_different_storage_config.py `test_meta`, `test_meta_with_unicode`
    /// (the target is the size asked), `test_meta_frame_count`; the json_engine vows' shape
    /// (source, operations, target) and the crop and resize thumbor's transformer makes.
    func testMetaDescribesTheSourceTheOperationsAndTheTarget() async throws {
        let base = try await serve(["--allow-loopback-sources"])
        let source = origin.url("/photo.jpg").absoluteString
        let filled = try await meta(base, "/unsafe/meta/800x400/\(source)")
        XCTAssertEqual(filled["source"] as? NSDictionary,
                       ["url": source, "width": 1024, "height": 768, "frameCount": 1] as NSDictionary)
        // auto_crop: 1024 × 512 of the 1024 × 768 source, centred (top 128), then resized.
        XCTAssertEqual(filled["operations"] as? NSArray, [
            ["type": "crop", "left": 0, "top": 128, "right": 1024, "bottom": 640],
            ["type": "resize", "width": 800, "height": 400],
        ] as NSArray)
        XCTAssertEqual(filled["target"] as? NSDictionary, ["width": 800, "height": 400] as NSDictionary)
        XCTAssertEqual(filled["focal_points"] as? NSArray,
                       [["x": 512, "y": 384, "z": 1.0, "width": 1, "height": 1, "origin": "alignment"]] as NSArray)

        let portrait = try await meta(base, "/unsafe/meta/200x300/\(source)")
        XCTAssertEqual(portrait["target"] as? NSDictionary, ["width": 200, "height": 300] as NSDictionary)
        XCTAssertEqual((portrait["operations"] as? [NSDictionary])?.first,
                       ["type": "crop", "left": 256, "top": 0, "right": 768, "bottom": 768] as NSDictionary)

        let fitted = try await meta(base, "/unsafe/meta/fit-in/-100x-100/\(source)")
        XCTAssertEqual(fitted["operations"] as? NSArray, [
            ["type": "resize", "width": 100, "height": 75], ["type": "flip_horizontally"], ["type": "flip_vertically"],
        ] as NSArray)
        let untouched = try await meta(base, "/unsafe/meta/\(source)")
        XCTAssertEqual(untouched["operations"] as? NSArray, [] as NSArray)
        XCTAssertEqual(untouched["target"] as? NSDictionary, ["width": 1024, "height": 768] as NSDictionary)

        // Python's json.dumps spacing, thumbor's key order.
        let raw = try await get(base + "/unsafe/meta/fit-in/100x100/\(source)")
        XCTAssertTrue(String(decoding: raw.body, as: UTF8.self).hasPrefix(#"{"thumbor": {"source": {"url": "\#(source)", "width": 1024, "#),
                      String(decoding: raw.body, as: UTF8.self))
    }

    /// test_saves_meta_to_result_storage and test_meta_frame_count_with_gif: a two-frame GIF
    /// says `frameCount` 2; the JSONP form of thumbor's `callback` argument.
    func testMetaCountsFramesAndWrapsJSONP() async throws {
        let base = try await serve(["--allow-loopback-sources"])
        let frames = [RGBA(r: 255, g: 0, b: 0), RGBA(r: 0, g: 0, b: 255)].map {
            ImageFrame(pixels: PixelBuffer(width: 100, height: 100, fill: $0), duration: 0.1)
        }
        let gif = try ImageCoders(WebImageCodecs.defaultCoders).encode(Image(frames: frames), as: .gif)
        origin.route("/animated.gif", .bytes(gif, contentType: "image/gif"))
        let source = origin.url("/animated.gif").absoluteString
        let animated = try await meta(base, "/unsafe/meta/\(source)")
        XCTAssertEqual(animated["source"] as? NSDictionary,
                       ["url": source, "width": 100, "height": 100, "frameCount": 2] as NSDictionary)

        // test_meta_with_exif_orientation: a source stored landscape and turned by its metadata
        // (here 64 × 48 with irot and EXIF orientation 6) is described upright.
        origin.route("/phone.heic", .bytes(try Fixtures.formatData("heic/irot_exif6.heic"), contentType: "image/heic"))
        let turned = try await meta(base, "/unsafe/meta/0x0/\(origin.url("/phone.heic").absoluteString)")
        XCTAssertEqual(turned["target"] as? NSDictionary, ["width": 48, "height": 64] as NSDictionary)
        XCTAssertEqual((turned["source"] as? NSDictionary)?["width"] as? Int, 48)

        let jsonp = try await get(base + "/unsafe/meta/fit-in/50x50/\(source)?callback=thumbor.done_1")
        XCTAssertEqual(jsonp.status, 200)
        XCTAssertEqual(jsonp.headers.first(name: "Content-Type"), "text/javascript")
        let body = String(decoding: jsonp.body, as: UTF8.self)
        XCTAssertTrue(body.hasPrefix(#"thumbor.done_1({"thumbor": "#) && body.hasSuffix("}});"), body)
        let refused = try await get(base + "/unsafe/meta/\(source)?callback=alert(1)")
        XCTAssertEqual(refused.status, 400)
    }

    /// tests/filters/test_focal.py: `focal(146x156:279x208)` is the point 212, 182 of 133 × 52;
    /// `focal()`, `focal(0x0:0x0)` and `focal(lkasjdklfjlkajsfd)` change nothing. The focal point
    /// steers the crop (test_transformer.py's focal cases): centred on it, within the image.
    func testFocalPointsSteerTheCrop() async throws {
        let base = try await serve(["--allow-loopback-sources"])
        let photo = origin.url("/photo.jpg").absoluteString
        let described = try await meta(base, "/unsafe/meta/filters:focal(146x156:279x208)/\(photo)")
        XCTAssertEqual(described["focal_points"] as? NSArray,
                       [["x": 212, "y": 182, "z": 6916, "width": 133, "height": 52, "origin": "Explicit"]] as NSArray)

        let halves = try serveHalves()
        let red = RGBA(r: 255, g: 0, b: 0), blue = RGBA(r: 0, g: 0, b: 255)
        let (_, centred) = try await fetched(base, "/unsafe/50x50/filters:format(png)/\(halves)", format: .png)
        XCTAssertEqual(centred.pixels[2, 25], red)
        XCTAssertEqual(centred.pixels[47, 25], blue)
        let (_, focused) = try await fetched(base, "/unsafe/50x50/filters:focal(150x40:190x60):format(png)/\(halves)", format: .png)
        XCTAssertEqual([focused.pixelWidth, focused.pixelHeight], [50, 50])
        // Cut at 100 of the source, the scaled image's edge: the columns beside it blend a little.
        XCTAssertTrue(near(focused.pixels[10, 25], blue), "\(focused.pixels[10, 25])")
        XCTAssertEqual(focused.pixels[47, 25], blue)
        for ignored in ["focal()", "focal(0x0:0x0)", "focal(lkasjdklfjlkajsfd)"] {
            let (_, same) = try await fetched(base, "/unsafe/50x50/filters:\(ignored):format(png)/\(halves)", format: .png)
            XCTAssertEqual(same.pixels.bytes, centred.pixels.bytes, ignored)
        }
        // A focal point outside the manual crop is dropped, as thumbor's adjust_focal_points drops it.
        let (_, cropped) = try await fetched(base, "/unsafe/0x0:120x100/50x50/filters:focal(180x40:190x60):format(png)/\(halves)",
                                             format: .png)
        XCTAssertEqual(cropped.pixels[2, 25], red)
    }

    /// filters/extract_focal.py: the crop of an earlier thumbor URL in the image part becomes the
    /// focal point and that URL's image the image, through a host and up to ten URLs deep.
    func testExtractFocalReadsTheEarlierCrop() async throws {
        let base = try await serve(["--allow-loopback-sources"])
        let halves = try serveHalves()
        let host = try XCTUnwrap(origin.url("/").host), port = try XCTUnwrap(origin.url("/").port)
        let inner = "\(host):\(port)/unsafe/150x40:190x60/\(halves)"
        let (_, focused) = try await fetched(base, "/unsafe/50x50/filters:extract_focal():format(png)/\(inner)", format: .png)
        XCTAssertEqual([focused.pixelWidth, focused.pixelHeight], [50, 50])
        XCTAssertTrue(near(focused.pixels[10, 25], RGBA(r: 0, g: 0, b: 255)), "\(focused.pixels[10, 25])")
        let described = try await meta(base, "/unsafe/meta/50x50/filters:extract_focal()/\(host):\(port)/unsafe/fit-in/9x9/\(inner)")
        XCTAssertEqual((described["source"] as? NSDictionary)?["url"] as? String, halves)
        XCTAssertEqual((described["focal_points"] as? [NSDictionary])?.first?["x"] as? Int, 170)
        // Without extract_focal the image part is one URL, which the origin does not have.
        let plain = try await get(base + "/unsafe/50x50/\(inner)")
        XCTAssertNotEqual(plain.status, 200)
    }
}
