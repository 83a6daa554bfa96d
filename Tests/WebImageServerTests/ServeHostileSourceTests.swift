import Foundation
import LoopbackHTTPServer
import WebImageTestSupport
import XCTest

/// `webimage serve` against URLs and origins that try to break it: each answer is an error
/// status, and the server goes on answering.
final class ServeHostileSourceTests: ServeTestCase {
    func testASourcePortOutsideTheRangeIsABadRequestAndARedirectToOneIsABadGateway() async throws {
        let base = try serve(["--allow-loopback-sources"])
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
        let base = try serve(["--allow-loopback-sources"])
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
