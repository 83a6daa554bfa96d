import Foundation
import LoopbackHTTPServer
import WebImageTestSupport
import XCTest

/// Connections are bounded: a request head must arrive within `--read-request-timeout` however
/// slowly its bytes trickle, an idle connection closes after `--keep-alive-timeout`, an answer
/// not written within `--write-response-timeout` closes its connection, and `--max-clients`
/// caps the connections open at once.
final class ServeConnectionTests: ServeTestCase {
    private func port(of base: String) throws -> Int {
        try XCTUnwrap(URLComponents(string: base)?.port)
    }

    func testASlowHeadAndAnIdleConnectionAreClosedAfterTheirTimeouts() async throws {
        let base = try await serve(["--read-request-timeout", "1", "--keep-alive-timeout", "1"])
        let slow = try RawHTTPConnection(port: try port(of: base), timeout: .seconds(10))
        // A byte every 200 ms keeps any idle timer quiet; the head never ends.
        let started = ContinuousClock.now
        for byte in "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: aaaaaaaaaaaaaaaa".map(String.init) {
            guard (try? slow.send(byte)) != nil, !slow.receivesAnything(within: .milliseconds(200)) else { break }
        }
        _ = slow.receive()
        XCTAssertTrue(slow.isClosedByServer, "a head that takes too long closes the connection")
        XCTAssertLessThan(started.duration(to: .now), .seconds(6))

        let idle = try RawHTTPConnection(port: try port(of: base), timeout: .seconds(10))
        try idle.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let answer = idle.receive { String(decoding: $0, as: UTF8.self).hasSuffix("running\n") }
        XCTAssertTrue(String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 200"))
        XCTAssertFalse(idle.isClosedByServer)
        _ = idle.receive()
        XCTAssertTrue(idle.isClosedByServer, "an idle keep-alive connection closes after the timeout")
    }

    /// imgproxy's `IMGPROXY_KEEP_ALIVE_TIMEOUT`: the idle time after an answer is its own
    /// (here shorter than the first head's), and 0 answers `Connection: close` and closes.
    func testTheKeepAliveTimeoutIsTheIdleTimeAndZeroClosesEachConnection() async throws {
        let base = try await serve(["--read-request-timeout", "30", "--keep-alive-timeout", "1"])
        let idle = try RawHTTPConnection(port: try port(of: base), timeout: .seconds(10))
        try idle.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        _ = idle.receive { String(decoding: $0, as: UTF8.self).hasSuffix("running\n") }
        let answered = ContinuousClock.now
        _ = idle.receive()
        XCTAssertTrue(idle.isClosedByServer, "idle past the keep-alive timeout")
        XCTAssertLessThan(answered.duration(to: .now), .seconds(6), "after the keep-alive timeout, not the read timeout")

        let once = try await serve([], environment: ["IMGPROXY_KEEP_ALIVE_TIMEOUT": "0"])
        let single = try RawHTTPConnection(port: try port(of: once), timeout: .seconds(10))
        try single.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let answer = String(decoding: single.receive(), as: UTF8.self)
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 200"), answer)
        XCTAssertTrue(answer.lowercased().contains("connection: close"), answer)
        XCTAssertTrue(single.isClosedByServer, "closed once the answer is written")
    }

    func testConnectionsPastMaxClientsAreClosedAndTheOthersGoOn() async throws {
        let base = try await serve(["--max-clients", "2"])
        let first = try RawHTTPConnection(port: try port(of: base), timeout: .seconds(10))
        let second = try RawHTTPConnection(port: try port(of: base), timeout: .seconds(10))
        try first.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        _ = first.receive { String(decoding: $0, as: UTF8.self).hasSuffix("running\n") }
        let third = try RawHTTPConnection(port: try port(of: base), timeout: .seconds(10))
        let sent = ContinuousClock.now
        try? third.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        XCTAssertEqual(third.receive(), Data(), "the third connection is closed (or reset) unanswered")
        XCTAssertLessThan(sent.duration(to: .now), .seconds(5), "closed at once, not left to time out")
        try second.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let answer = second.receive { String(decoding: $0, as: UTF8.self).hasSuffix("running\n") }
        XCTAssertTrue(String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 200"), "admitted connections go on")
        withExtendedLifetime(first) {}
    }

    /// imgproxy's `IMGPROXY_WRITE_RESPONSE_TIMEOUT`: a client that asks for 13 MB and reads
    /// none of it has its connection closed once the answer has taken the limit to write; the
    /// bytes the kernels held are all it gets. Under the default limit, a client that starts
    /// reading as late gets the whole answer, and other connections are answered meanwhile.
    func testAnAnswerNotWrittenInTimeClosesItsConnection() async throws {
        let big = try Fixtures.requireFullCorpus(for: "a 13 MB answer").imageData("ref/sd_TestJFIF.jpg.srgb.png")
        origin.route("/big.png", .bytes(big, contentType: "image/png"))
        let request = "GET /insecure/raw:1/plain/\(origin.url("/big.png").absoluteString) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        for (arguments, closes) in [(["--write-response-timeout", "1"], true), ([], false)] {
            let base = try await serve(["--allow-loopback-sources"] + arguments)
            let stalled = try RawHTTPConnection(port: try port(of: base), timeout: .seconds(20), receiveBuffer: 16 << 10)
            try stalled.send(request)
            // The answer's head arrives, then the client stops reading for three seconds.
            let head = stalled.receive { $0.range(of: Data("\r\n\r\n".utf8)) != nil }
            XCTAssertTrue(String(decoding: head.prefix(12), as: UTF8.self).hasPrefix("HTTP/1.1 200"))
            let headLength = try XCTUnwrap(head.range(of: Data("\r\n\r\n".utf8))).upperBound
            let other = try RawHTTPConnection(port: try port(of: base), timeout: .seconds(10))
            try other.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let health = other.receive { String(decoding: $0, as: UTF8.self).hasSuffix("running\n") }
            XCTAssertTrue(String(decoding: health, as: UTF8.self).hasPrefix("HTTP/1.1 200"), "another connection is answered")
            try await Task.sleep(for: .seconds(3))
            let rest = stalled.receive { head.count - headLength + $0.count >= big.count }
            let bodyBytes = head.count - headLength + rest.count
            if closes {
                XCTAssertTrue(stalled.isClosedByServer, "closed past the write timeout")
                XCTAssertLessThan(bodyBytes, big.count, "what was still queued is dropped")
            } else {
                XCTAssertFalse(stalled.isClosedByServer, "within the default 10 s, the connection waits for its reader")
                XCTAssertEqual(bodyBytes, big.count)
            }
        }
    }
}
