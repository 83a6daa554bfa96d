import Foundation
import WebImageTestSupport
import XCTest

/// HTTP framing held as nginx holds it in front of caches, sent as raw bytes (no HTTP client
/// library sends these): a request whose body length two readers could read differently is
/// refused and its connection closed, so no second request is read from its body; heads too
/// many, too long or with a target over the limit are refused at once, without the server
/// growing; `/health` answers right after each.
final class ServeFramingTests: ServeTestCase {
    /// What the server answers `request` on a connection of its own, whether it then closed
    /// the connection, and how long it took.
    private func exchange(_ base: String, _ request: String) throws -> (answer: String, closed: Bool, took: Duration) {
        let connection = try RawHTTPConnection(port: try XCTUnwrap(URLComponents(string: base)?.port), timeout: .seconds(5))
        let started = ContinuousClock.now
        // A server that refuses a head before it is all sent may close while it is sent.
        try? connection.send(request)
        let answer = String(decoding: connection.receive(), as: UTF8.self)
        return (answer, connection.isClosedByServer, started.duration(to: .now))
    }

    /// The status codes of the responses in `answer`, in order.
    private func statuses(_ answer: String) -> [Int] {
        answer.components(separatedBy: "HTTP/1.1 ").dropFirst().compactMap { Int($0.prefix(3)) }
    }

    /// Asserts that `/health` is answered 200 on a new connection.
    private func assertHealthy(_ base: String, after name: String) async throws {
        let health = try await get(base + "/health")
        XCTAssertEqual(health.status, 200, "/health after \(name)")
    }

    func testBodiesTwoReadersCouldFrameDifferentlyAreRefusedAndTheConnectionCloses() async throws {
        let base = try await serve([])
        let smuggled = "GET /metrics HTTP/1.1\r\nHost: a\r\n\r\n"
        let cases = [
            ("Content-Length with Transfer-Encoding",
             "GET /health HTTP/1.1\r\nHost: a\r\nContent-Length: 40\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + smuggled),
            ("Transfer-Encoding with Content-Length",
             "GET /health HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n" + smuggled),
            ("conflicting Content-Length", "GET /health HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nContent-Length: 36\r\n\r\nabc" + smuggled),
            ("repeated Content-Length", "GET /health HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\nContent-Length: 0\r\n\r\n" + smuggled),
            ("a Content-Length list", "GET /health HTTP/1.1\r\nHost: a\r\nContent-Length: 0, 0\r\n\r\n" + smuggled),
            ("a last coding other than chunked", "GET /health HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, gzip\r\n\r\n" + smuggled),
            ("a space before the colon", "GET /health HTTP/1.1\r\nHost: a\r\nTransfer-Encoding : chunked\r\n\r\n0\r\n\r\n" + smuggled),
            ("a Content-Length that is no number", "GET /health HTTP/1.1\r\nHost: a\r\nContent-Length: +3\r\n\r\nabc" + smuggled),
            ("a folded line", "GET /health HTTP/1.1\r\nHost: a\r\nX-A: a\r\n Content-Length: 36\r\n\r\n" + smuggled),
            ("bare line feeds", "GET /health HTTP/1.1\nHost: a\nContent-Length: 36\n\n" + smuggled),
        ]
        for (name, request) in cases {
            let (answer, closed, took) = try exchange(base, request)
            XCTAssertEqual(statuses(answer), [400], "\(name): one answer, a refusal: \(answer)")
            XCTAssertTrue(closed, "\(name): the connection is closed")
            XCTAssertLessThan(took, .seconds(1), name)
            try await assertHealthy(base, after: name)
        }
        // Framed one way only, a chunked body is read and the request after it answered.
        let chunked = "GET /health HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"
            + "GET /health HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"
        let (answer, _, _) = try exchange(base, chunked)
        XCTAssertEqual(statuses(answer), [200, 200], answer)
    }

    func testHeadsTooManyOrTooLongAreRefusedAtOnceWithoutGrowth() async throws {
        // Run as a process: its resident size is the server's alone.
        let base = try serveProcess([])
        let server = try XCTUnwrap(processes.first)
        let manyLines = (0..<10_000).map { "X-Field-\($0): a\r\n" }.joined()
        let cases: [(String, String, [Int])] = [
            ("10,000 header lines", "GET /health HTTP/1.1\r\nHost: a\r\n" + manyLines + "\r\n", [400]),
            ("a 1 MB header line", "GET /health HTTP/1.1\r\nHost: a\r\nX-Big: " + String(repeating: "b", count: 1 << 20) + "\r\n\r\n", [400]),
            ("a request line over the limit", "GET /" + String(repeating: "c", count: 9000) + " HTTP/1.1\r\nHost: a\r\n\r\n", [414]),
            ("a 1 MB request line", "GET /" + String(repeating: "d", count: 1 << 20) + " HTTP/1.1\r\nHost: a\r\n\r\n", [400]),
        ]
        // Once for the server to reach its working size, then the rounds it must not grow over.
        var before = 0
        for round in 0..<6 {
            if round == 1 { before = ProcessMemory.residentBytes(ofProcess: server.processIdentifier) }
            for (name, request, expected) in cases {
                let (answer, closed, took) = try exchange(base, request)
                XCTAssertEqual(statuses(answer), expected, "\(name): \(answer.prefix(200))")
                XCTAssertTrue(closed, "\(name): the connection is closed")
                XCTAssertLessThan(took, .seconds(1), name)
                if round == 0 { try await assertHealthy(base, after: name) }
            }
        }
        let after = ProcessMemory.residentBytes(ofProcess: server.processIdentifier)
        XCTAssertGreaterThan(before, 0)
        XCTAssertLessThan(after - before, 16 << 20, "the server does not keep what it refused (\(before) → \(after) bytes)")
        let limit = try exchange(base, "GET /" + String(repeating: "e", count: 8191) + " HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        XCTAssertNotEqual(statuses(limit.answer).first, 414, "a target of 8192 bytes is within the limit")
    }
}
