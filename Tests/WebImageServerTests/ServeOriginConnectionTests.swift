import Foundation
import LoopbackHTTPServer
import WebImageTestSupport
import XCTest

/// Connections to origins are kept alive as imgproxy's `IMGPROXY_CLIENT_KEEP_ALIVE_TIMEOUT`
/// says, counted at a real loopback origin: reused by the next source from the same host within
/// the idle time, closed after it, and never kept when it is 0.
final class ServeOriginConnectionTests: ServeTestCase {
    /// Fetches `path` from the origin as a small result of `base`, and checks it was made.
    private func fetch(_ base: String, _ path: String) async throws {
        let response = try await get(base + "/insecure/rs:fit:32:32/plain/" + origin.url(path).absoluteString)
        XCTAssertEqual(response.status, 200, path)
    }

    override func setUp() async throws {
        try await super.setUp()
        let photo = try Fixtures.data(Fixtures.bench("testjfif_256.jpg"))
        for name in ["a", "b", "c", "d"] { origin.route("/\(name).jpg", .bytes(photo, contentType: "image/jpeg")) }
    }

    func testAConnectionToAnOriginIsReusedWithinTheIdleTimeAndClosedAfterIt() async throws {
        let base = try await serve(["--allow-loopback-sources", "--client-keep-alive-timeout", "1"])
        try await fetch(base, "/a.jpg")
        try await fetch(base, "/b.jpg")
        XCTAssertEqual(origin.connectionCount, 1, "the second source comes over the first one's connection")
        try await Task.sleep(for: .seconds(2))
        try await fetch(base, "/c.jpg")
        XCTAssertEqual(origin.connectionCount, 2, "past the idle time, the connection was closed and a new one opened")
    }

    func testZeroOpensAConnectionForEachFetch() async throws {
        let base = try await serve(["--allow-loopback-sources"], environment: ["IMGPROXY_CLIENT_KEEP_ALIVE_TIMEOUT": "0"])
        try await fetch(base, "/a.jpg")
        try await fetch(base, "/b.jpg")
        XCTAssertEqual(origin.connectionCount, 2)
    }

    func testTheDefaultIdleTimeKeepsAConnectionThroughAPause() async throws {
        let base = try await serve(["--allow-loopback-sources"])
        try await fetch(base, "/a.jpg")
        try await Task.sleep(for: .seconds(2))
        try await fetch(base, "/d.jpg")
        XCTAssertEqual(origin.connectionCount, 1, "imgproxy's 90 s keeps it")
    }
}
