import Foundation
import LoopbackHTTPServer
import WebImageTestSupport
import XCTest

/// `webimage serve` against URLs and origins that try to break it: each answer is an error
/// status, and the server goes on answering.
final class ServeHostileSourceTests: ServeTestCase {
    func testASourcePortOutsideTheRangeIsABadRequestAndARedirectToOneIsABadGateway() async throws {
        let base = try await serve(["--allow-loopback-sources"])
        for path in ["/insecure/w:10/plain/http://1.2.3.4:99999/x.jpg",
                     "/insecure/w:10/aHR0cDovLzEuMi4zLjQ6OTk5OTkveC5qcGc", // http://1.2.3.4:99999/x.jpg
                     "/unsafe/10x10/http://1.2.3.4:99999/x.jpg",
                     "/unsafe/10x10/1.2.3.4:65536/x.jpg"] {
            let response = try await get(base + path)
            XCTAssertEqual(response.status, 400, path)
            XCTAssertTrue(String(decoding: response.body, as: UTF8.self).contains("outside 1…65535"), path)
        }
        origin.route("/far.jpg", LoopbackHTTPResponse(status: 302, headers: [("Location", "http://127.0.0.1:99999/x.jpg")]))
        let redirected = try await get(base + "/insecure/w:10/plain/" + origin.url("/far.jpg").absoluteString)
        XCTAssertEqual(redirected.status, 502)
        XCTAssertTrue(String(decoding: redirected.body, as: UTF8.self).contains("refused a redirect"))

        let alive = try await get(base + "/insecure/w:10/plain/" + origin.url("/photo.jpg").absoluteString)
        XCTAssertEqual(alive.status, 200, "the server still answers")
    }
}

extension ServeHostileSourceTests {
    func testAFailedSourceIsAskedAgainAndAnswersItsOwnStatusEveryTime() async throws {
        let base = try await serve(["--allow-loopback-sources"])
        let url = base + "/insecure/w:10/plain/" + origin.url("/later.jpg").absoluteString
        origin.route("/later.jpg", .status(404))
        for _ in 0..<2 {
            let missing = try await get(url)
            XCTAssertEqual(missing.status, 404)
        }
        origin.route("/later.jpg", .bytes(Data("not an image".utf8), contentType: "image/jpeg"))
        for _ in 0..<2 {
            let notAnImage = try await get(url)
            XCTAssertEqual(notAnImage.status, 422)
        }
        origin.route("/later.jpg", .bytes(try Fixtures.data(Fixtures.bench("testjfif_256.jpg")), contentType: "image/jpeg"))
        let uploaded = try await get(url)
        XCTAssertEqual(uploaded.status, 200, "the upload has finished: the source is fetched again")
        XCTAssertEqual(origin.requestCount("/later.jpg"), 5)
    }
}

extension ServeHostileSourceTests {
    /// Sources small on the wire whose frames or canvas are huge are refused from the header:
    /// the source's own size counts, all frames of an animation together, whatever size the
    /// URL asks for.
    func testSourcesDeclaringTooManyPixelsAreRefusedBeforeDecoding() async throws {
        let bombs: [(String, Data, String)] = [
            ("/frames.gif", CraftedImage.gif(width: 7000, height: 7000, frames: 100),
             "source too large: 100 frames of 7000x7000 pixels exceed the limit of 50000000 pixels"),
            ("/two.gif", CraftedImage.gif(width: 6000, height: 6000, frames: 2),
             "source too large: 2 frames of 6000x6000 pixels exceed the limit of 50000000 pixels"),
            ("/huge.webp", CraftedImage.webp(side: 16383),
             "source too large: 16383x16383 pixels exceeds the limit of 50000000 pixels"),
        ]
        for (path, data, _) in bombs { origin.route(path, .bytes(data, contentType: "application/octet-stream")) }
        let base = try await serve(["--allow-loopback-sources"])
        for (path, data, message) in bombs {
            XCTAssertLessThan(data.count, 4096, path)
            let response = try await get(base + "/insecure/rs:fit:100:100/plain/" + origin.url(path).absoluteString)
            XCTAssertEqual(response.status, 422, path)
            XCTAssertTrue(String(decoding: response.body, as: UTF8.self).contains(message),
                          "\(path): \(String(decoding: response.body, as: UTF8.self))")
        }
        // Under a limit of 1 megapixel, two frames of 0.81: together over it, the first alone
        // (a still) under it, and each under a per-frame limit of 0.9.
        origin.route("/pair.gif", .bytes(CraftedImage.gif(width: 900, height: 900, frames: 2), contentType: "image/gif"))
        let small = try await serve(["--allow-loopback-sources", "--max-src-resolution", "1"])
        let pair = "/plain/" + origin.url("/pair.gif").absoluteString
        let together = try await get(small + "/insecure/rs:fit:100:100" + pair)
        XCTAssertEqual(together.status, 422)
        let still = try await get(small + "/insecure/rs:fit:100:100/f:jpg" + pair)
        XCTAssertEqual(still.status, 200, "a still decodes the first frame only")
        let perFrame = try await serve(["--allow-loopback-sources", "--max-src-resolution", "1", "--max-animation-frame-resolution", "0.9"])
        let framesAlone = try await get(perFrame + "/insecure/rs:fit:100:100" + pair)
        XCTAssertEqual(framesAlone.status, 200, "each frame is under the per-frame limit")
    }
}
