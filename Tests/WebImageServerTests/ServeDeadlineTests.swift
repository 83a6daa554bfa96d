import AsyncHTTPClient
import Foundation
import LoopbackHTTPServer
import NIOCore
import WebImageTestSupport
import XCTest

/// Every request ends: past `--timeout` it is answered 504 and its work stops; a client that
/// hangs up stops it too; and work too large is refused before it starts.
final class ServeDeadlineTests: ServeTestCase {
    /// A source whose bytes never come: the origin holds the response until the gate opens.
    private func heldSource() -> LoopbackHTTPGate {
        let gate = LoopbackHTTPGate()
        var held = LoopbackHTTPResponse(status: 200, headers: [("Content-Type", "image/jpeg")], neverEnds: true)
        held.gate = gate
        origin.route("/held.jpg", held)
        return gate
    }

    func testARequestPastItsDeadlineIsAnswered504AndItsDownloadStops() async throws {
        let gate = heldSource()
        defer { gate.open() }
        let base = try await serve(["--allow-loopback-sources", "--timeout", "0.5"])
        let started = ContinuousClock.now
        let response = try await get(base + "/insecure/w:10/plain/" + origin.url("/held.jpg").absoluteString)
        XCTAssertEqual(response.status, 504)
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "the image was not ready within 0.5 s\n")
        XCTAssertLessThan(started.duration(to: .now), .seconds(5))
        let stopped = await origin.wait(timeout: .seconds(10)) { $0.abortedCount("/held.jpg") == 1 }
        XCTAssertTrue(stopped, "the download nobody waits for any more is cancelled")
    }

    /// A download waits on the network outside the processing slots: with one slot, a source
    /// that never arrives does not keep another request from being made; and when its client
    /// hangs up, its download is cancelled.
    func testADownloadWaitingOnTheNetworkHoldsNoSlot() async throws {
        let gate = heldSource()
        defer { gate.open() }
        let base = try await serve(["--allow-loopback-sources", "--concurrency", "1", "--max-queue", "1"])
        let held = base + "/insecure/w:10/plain/" + origin.url("/held.jpg").absoluteString
        let photo = base + "/insecure/w:11/plain/" + origin.url("/photo.jpg").absoluteString
        let http: HTTPClient = self.client
        async let answeredA = Self.giveUp(on: held, after: .seconds(6), client: http)
        let started = await origin.wait(timeout: .seconds(10)) { $0.requestCount("/held.jpg") == 1 }
        XCTAssertTrue(started)
        let answeredB = try await Self.giveUp(on: photo, after: .seconds(4), client: http)
        XCTAssertTrue(answeredB, "B is made while A's download waits, in the only slot")
        let aWasAnswered = try await answeredA
        XCTAssertFalse(aWasAnswered, "A's source is held")
        let stopped = await origin.wait(timeout: .seconds(10)) { $0.abortedCount("/held.jpg") == 1 }
        XCTAssertTrue(stopped, "the download of a request whose client left is cancelled")
    }

    func testAClientThatHangsUpFreesItsPlaceInTheQueue() async throws {
        let base = try await serve(["--allow-loopback-sources", "--concurrency", "1", "--max-queue", "1", "--timeout", "120"])
        // Seconds of work: a 2400-pixel result of the photo, blurred.
        let heavy = base + "/insecure/rs:fit:2400:2400/el:1/bl:8/plain/" + origin.url("/photo.jpg").absoluteString
        let photo = base + "/insecure/w:11/plain/" + origin.url("/photo.jpg").absoluteString
        // A holds the only slot and gives up after 1.5 s; B waits in the only place in the
        // queue and gives up after 0.3 s; C, asked after B left, finds the queue free again.
        let http: HTTPClient = self.client
        async let answeredA = Self.giveUp(on: heavy, after: .milliseconds(1500), client: http)
        try await waitUntilSourcesFetched(base)
        let answeredB = try await Self.giveUp(on: photo, after: .milliseconds(300), client: http)
        XCTAssertFalse(answeredB, "B waits in the queue behind A")
        // The server learns of B's hang-up when its connection closes, a moment after B gave up.
        let left = try await metrics(base, once: "webimage_queue_length", is: 0, timeout: .seconds(5))
        XCTAssertEqual(left["webimage_queue_length"], 0, "B's place in the queue is given back when it hangs up")
        let c = try await get(base + "/insecure/w:12/plain/" + origin.url("/photo.jpg").absoluteString)
        XCTAssertEqual(c.status, 200, "B left the queue, so C waited in it until A's work ended and freed the slot")
        let aWasAnswered = try await answeredA
        XCTAssertFalse(aWasAnswered, "A's work takes longer than its client waits")
        let samples = try await metrics(base)
        XCTAssertEqual(samples["webimage_status_codes_total{status=\"499\"}"], 2)
    }

    /// Asks `client` for `url` as a client that gives up after `patience`; says whether it was
    /// answered before that.
    private static func giveUp(on url: String, after patience: Duration, client: HTTPClient) async throws -> Bool {
        let nanoseconds = patience.components.seconds * 1_000_000_000 + patience.components.attoseconds / 1_000_000_000
        do {
            _ = try await client.execute(HTTPClientRequest(url: url), timeout: .nanoseconds(nanoseconds))
            return true
        } catch {
            return false
        }
    }

    /// A source that never stalls but trickles a byte every 100 ms: `--download-timeout` is
    /// the whole download, as imgproxy's, so it fails after it although no silence is that long.
    func testATricklingSourceIsCutAtTheWholeDownloadTimeout() async throws {
        let jpeg = try Fixtures.data(Fixtures.bench("testjfif_256.jpg"))
        origin.route("/trickle.jpg", LoopbackHTTPResponse(
            status: 200, headers: [("Content-Type", "image/jpeg"), ("Content-Length", String(jpeg.count))],
            chunks: jpeg.map { Data([$0]) }, chunkDelay: .milliseconds(100)))
        let base = try await serve(["--allow-loopback-sources", "--download-timeout", "1"])
        let started = ContinuousClock.now
        let response = try await get(base + "/insecure/w:10/plain/" + origin.url("/trickle.jpg").absoluteString)
        XCTAssertEqual(response.status, 504)
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "the source image did not arrive in time\n")
        XCTAssertLessThan(started.duration(to: .now), .seconds(5), "cut at about a second, not after the \(jpeg.count) bytes' trickle")
    }

    func testABlurTooLargeForItsResultIsRefusedBeforeItStarts() async throws {
        let base = try await serve(["--allow-loopback-sources"])
        let source = origin.url("/photo.jpg").absoluteString
        let bomb = try await get(base + "/insecure/rs:fit:7000:7000/el:1/bl:100/plain/" + source)
        XCTAssertEqual(bomb.status, 422)
        XCTAssertTrue(String(decoding: bomb.body, as: UTF8.self).contains("more work than allowed"))
        let small = try await get(base + "/insecure/rs:fit:100:100/bl:100/plain/" + source)
        XCTAssertEqual(small.status, 200, "a large radius on a small result is allowed")
    }
}
