import Foundation
import WebImage
import WebImageCodecs
import WebImageServer
import WebImageTestSupport
import XCTest

/// Smart gravity through a real `webimage serve` on loopback: imgproxy's `g:sm` and `c:W:H:sm`
/// and thumbor's `smart/` answer with the salient part of an off-centre photo.
final class ServeSmartGravityTests: ServeTestCase {
    /// The image `path` on `base` answers, after checking it is a 200.
    private func served(_ base: String, _ path: String, file: StaticString = #filePath, line: UInt = #line) async throws -> PixelBuffer {
        let response = try await get(base + path)
        XCTAssertEqual(response.status, 200, String(decoding: response.body, as: UTF8.self), file: file, line: line)
        return try ImageCoders.shared.decode(response.body).pixels
    }

    func testSmartGravityServesTheSalientArea() async throws {
        let canvas = try OffCentrePhoto.pixels()
        let png = try ImageCoders(WebImageCodecs.defaultCoders).encode(Image(pixels: canvas), as: .png)
        origin.route("/offcentre.png", .bytes(png, contentType: "image/png"))
        let source = origin.url("/offcentre.png").absoluteString
        let base = try await serve(["--allow-loopback-sources"])
        // 1024 × 384 filled into 200 × 200 scales to 533 × 200, the photo to some 133 × 100 of it.
        let whole = OffCentrePhoto.photoPixels(in: try await served(base, "/insecure/rs:fit:533:200/plain/\(source)@png"))
        XCTAssertGreaterThan(whole, 10_000)

        let smart = try await served(base, "/insecure/rs:fill:200:200/g:sm/plain/\(source)@png")
        XCTAssertEqual([smart.width, smart.height], [200, 200])
        XCTAssertGreaterThan(OffCentrePhoto.photoPixels(in: smart), whole * 95 / 100)
        let centre = try await served(base, "/insecure/rs:fill:200:200/g:ce/plain/\(source)@png")
        XCTAssertLessThan(OffCentrePhoto.photoPixels(in: centre), whole * 5 / 100)

        let thumbor = try await served(base, "/unsafe/200x200/smart/filters:format(png)/\(source)")
        XCTAssertGreaterThan(OffCentrePhoto.photoPixels(in: thumbor), whole * 95 / 100)
        let aligned = try await served(base, "/unsafe/200x200/filters:format(png)/\(source)")
        XCTAssertLessThan(OffCentrePhoto.photoPixels(in: aligned), whole * 5 / 100)

        let cropped = try await served(base, "/insecure/c:300:300:sm/plain/\(source)@png")
        XCTAssertEqual([cropped.width, cropped.height], [300, 300])
        XCTAssertGreaterThan(OffCentrePhoto.photoPixels(in: cropped), OffCentrePhoto.photoPixels(in: canvas) * 95 / 100)

        let offsets = try await get(base + "/insecure/rs:fill:200:200/g:sm:10:10/plain/\(source)@png")
        XCTAssertEqual(offsets.status, 400)
        XCTAssertTrue(String(decoding: offsets.body, as: UTF8.self).contains("smart gravity takes no offsets"))
        XCTAssertEqual(origin.requestCount("/offcentre.png"), 1, "one fetch served every variant")
    }
}
