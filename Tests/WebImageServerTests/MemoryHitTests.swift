import Foundation
import WebImageTestSupport
import XCTest

/// Results in memory answered as soon as their request is read (`MemoryHitHandler`): the same
/// answers as the responder's, in the order of the requests, closing when asked. Raw
/// connections to the built `webimage serve`, pipelining requests as clients may.
final class MemoryHitTests: ServeTestCase {
    private func port(of base: String) throws -> Int {
        try XCTUnwrap(URL(string: base)?.port)
    }

    private func request(_ method: String, _ path: String, _ fields: String = "") -> String {
        "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(fields)\r\n"
    }

    /// Reads until the responses to `methods` are all there.
    private func responses(on connection: RawHTTPConnection, answering methods: [String]) -> [RawHTTPResponse] {
        let bytes = connection.receive { RawHTTPResponse.all(in: $0, answering: methods).count == methods.count }
        return RawHTTPResponse.all(in: bytes, answering: methods)
    }

    func testMemoryHitsAreAnsweredAsTheResponderAnswersThem() async throws {
        let base = try await serve(["--allow-loopback-sources"])
        let path = "/insecure/rs:fit:120:120/plain/\(origin.url("/photo.jpg").absoluteString)"
        let made = try await get(base + path)
        XCTAssertEqual(made.status, 200)
        let etag = try XCTUnwrap(made.headers.first(name: "ETag"))

        let connection = try RawHTTPConnection(port: port(of: base))
        try connection.send(request("GET", path) + request("HEAD", path) + request("GET", path, "If-None-Match: \(etag)\r\n"))
        let answers = responses(on: connection, answering: ["GET", "HEAD", "GET"])
        XCTAssertEqual(answers.map(\.status), [200, 200, 304])
        guard answers.count == 3 else { return }
        XCTAssertEqual(answers[0].body, made.body)
        for name in ["etag", "last-modified", "cache-control", "content-type", "content-length", "content-disposition", "server"] {
            XCTAssertEqual(answers[0].headers[name], made.headers.first(name: name), name)
            XCTAssertEqual(answers[1].headers[name], made.headers.first(name: name), "HEAD: \(name)")
        }
        XCTAssertNotNil(answers[0].headers["date"])
        XCTAssertEqual(answers[1].body, Data())
        XCTAssertEqual(answers[2].headers["etag"], etag)

        let samples = try await metrics(base)
        XCTAssertEqual(samples[#"webimage_cache_lookups_total{cache="result",tier="memory"}"#], 3, "\(samples)")
        XCTAssertEqual(samples[#"webimage_status_codes_total{status="200"}"#], 3)
        XCTAssertEqual(samples[#"webimage_status_codes_total{status="304"}"#], 1)
    }

    func testAPipelinedMemoryHitWaitsForTheRequestBeforeIt() async throws {
        let gate = try holdSlowSource()
        let base = try await serve(["--allow-loopback-sources"])
        let cachedPath = "/insecure/w:60/plain/\(origin.url("/photo.jpg").absoluteString)"
        let cached = try await get(base + cachedPath)
        XCTAssertEqual(cached.status, 200)
        let slowPath = "/insecure/w:30/plain/\(origin.url("/slow.jpg").absoluteString)"

        let connection = try RawHTTPConnection(port: port(of: base))
        try connection.send(request("GET", slowPath) + request("GET", cachedPath))
        let arrived = await origin.wait(timeout: .seconds(30)) { $0.requestCount("/slow.jpg") == 1 }
        XCTAssertTrue(arrived)
        XCTAssertFalse(connection.receivesAnything(within: .milliseconds(500)),
                       "the cached result was answered before the request ahead of it")
        gate.open()
        let answers = responses(on: connection, answering: ["GET", "GET"])
        XCTAssertEqual(answers.map(\.status), [200, 200])
        guard answers.count == 2 else { return }
        XCTAssertNotEqual(answers[0].body, cached.body)
        XCTAssertEqual(answers[1].body, cached.body)
    }

    func testAMemoryHitAskingToCloseIsAnsweredThenClosed() async throws {
        let base = try await serve(["--allow-loopback-sources"])
        let path = "/insecure/w:40/plain/\(origin.url("/photo.jpg").absoluteString)"
        let made = try await get(base + path)
        XCTAssertEqual(made.status, 200)

        let connection = try RawHTTPConnection(port: port(of: base))
        try connection.send(request("GET", path, "Connection: close\r\n"))
        let bytes = connection.receive()
        XCTAssertTrue(connection.isClosedByServer, "the server kept the connection open")
        let answers = RawHTTPResponse.all(in: bytes, answering: ["GET"])
        XCTAssertEqual(answers.map(\.status), [200])
        XCTAssertEqual(answers.first?.body, made.body)
    }
}
