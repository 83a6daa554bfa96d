import Foundation
import Locking
import LoopbackHTTPServer
import WebImage
import WebImageTestSupport
import XCTest

/// A downloader's ``DownloadRetryPolicy`` against a real loopback origin that fails on purpose:
/// 5xx and 429 are tried again (waiting as `Retry-After` asks), 404 never; a retried download
/// stays one download for the callers that joined it; the last failure is what is reported;
/// cancelling stops the wait.
final class LoadingRetryTests: LoadingTestCase {
    private var jpeg: Data!
    /// Answers `failures` (status and fields) in turn, then the photo, counting every request.
    private func routeFailing(_ path: String, _ failures: [(Int, [(String, String)])]) {
        let asked = Mutex(0)
        let photo = jpeg!
        server.route(path) { _ in
            let index = asked.withLock { count -> Int in
                defer { count += 1 }
                return count
            }
            guard index < failures.count else { return .bytes(photo, contentType: "image/jpeg") }
            return LoopbackHTTPResponse(status: failures[index].0, headers: failures[index].1)
        }
    }

    private let quick = DownloadRetryPolicy(maxRetries: 2, initialDelay: 0.05, maxDelay: 5, jitter: 0)

    override func setUp() async throws {
        try await super.setUp()
        jpeg = try Fixtures.imageData("jpeg/pil_hopper.jpg")
    }

    func testServerErrorsAreTriedAgainAndTheLastFailureIsReported() async throws {
        routeFailing("/flaky.jpg", [(503, []), (500, [])])
        let downloader = makeDownloader { $0.retryPolicy = self.quick }
        let result = try await downloader.image(for: server.url("/flaky.jpg"), options: options())
        XCTAssertEqual(result.image.pixelWidth, 128)
        XCTAssertEqual(server.requestCount("/flaky.jpg"), 3)

        routeFailing("/down.jpg", [(503, []), (503, []), (502, []), (503, [])])
        let error = await loadError { try await downloader.image(for: self.server.url("/down.jpg"), options: self.options()) }
        XCTAssertEqual(error, .badStatusCode(502), "the third answer, after two retries")
        XCTAssertEqual(server.requestCount("/down.jpg"), 3)

        routeFailing("/gone.jpg", [(404, []), (404, [])])
        let missing = await loadError { try await downloader.image(for: self.server.url("/gone.jpg"), options: self.options()) }
        XCTAssertEqual(missing, .badStatusCode(404))
        XCTAssertEqual(server.requestCount("/gone.jpg"), 1, "a 4xx is never retried")

        let plain = makeDownloader()
        routeFailing("/once.jpg", [(503, [])])
        let once = await loadError { try await plain.image(for: self.server.url("/once.jpg"), options: self.options()) }
        XCTAssertEqual(once, .badStatusCode(503), "no policy, no retry, as SDWebImage")
        var perLoad = options()
        perLoad.retryPolicy = quick
        let retried = try await plain.image(for: server.url("/once.jpg?again"), options: perLoad)
        XCTAssertEqual(retried.image.pixelWidth, 128, "a load's own policy")
    }

    func testTooManyRequestsWaitsAsRetryAfterAsks() async throws {
        routeFailing("/busy.jpg", [(429, [("Retry-After", "1")])])
        let downloader = makeDownloader { $0.retryPolicy = self.quick }
        let started = ContinuousClock.now
        let result = try await downloader.image(for: server.url("/busy.jpg"), options: options())
        XCTAssertEqual(result.image.pixelWidth, 128)
        XCTAssertGreaterThanOrEqual(started.duration(to: .now), .milliseconds(950), "Retry-After: 1 waited out")
        XCTAssertEqual(server.requestCount("/busy.jpg"), 2)
    }

    func testJoinedCallersShareTheRetriedDownloadAndCancellingStopsTheWait() async throws {
        routeFailing("/shared.jpg", [(503, []), (503, [])])
        let downloader = makeDownloader { $0.retryPolicy = DownloadRetryPolicy(maxRetries: 2, initialDelay: 0.2, jitter: 0) }
        let url = server.url("/shared.jpg"), loadOptions = options()
        async let first = downloader.image(for: url, options: loadOptions)
        async let second = downloader.image(for: url, options: loadOptions)
        let (a, b) = try await (first, second)
        XCTAssertEqual([a.image.pixelWidth, b.image.pixelWidth], [128, 128])
        XCTAssertEqual(server.requestCount("/shared.jpg"), 3, "one download, tried three times, for both")

        routeFailing("/slow.jpg", [(503, []), (503, [])])
        let waiting = makeDownloader { $0.retryPolicy = DownloadRetryPolicy(maxRetries: 2, initialDelay: 20, jitter: 0) }
        let slowURL = server.url("/slow.jpg"), slowOptions = options()
        let load = Task { try await waiting.image(for: slowURL, options: slowOptions) }
        let asked = await server.wait(timeout: .seconds(10)) { $0.requestCount("/slow.jpg") == 1 }
        XCTAssertTrue(asked)
        try await Task.sleep(for: .milliseconds(100))
        let cancelled = ContinuousClock.now
        load.cancel()
        let error = await loadError { try await load.value }
        XCTAssertEqual(error, .cancelled)
        XCTAssertLessThan(cancelled.duration(to: .now), .seconds(5), "the 20-second wait stopped")
        XCTAssertEqual(server.requestCount("/slow.jpg"), 1)
    }

    func testTheWaitsGrowWithJitterAndRetryAfterMayBeADate() {
        let policy = DownloadRetryPolicy(maxRetries: 5, initialDelay: 1, maxDelay: 6, multiplier: 2, jitter: 0.5)
        XCTAssertEqual(policy.delay(beforeRetry: 1, random: 0), 1)
        XCTAssertEqual(policy.delay(beforeRetry: 2, random: 0), 2)
        XCTAssertEqual(policy.delay(beforeRetry: 3, random: 1), 2, "4 less half of it")
        XCTAssertEqual(policy.delay(beforeRetry: 5, random: 0), 6, "capped")
        let now = Date(timeIntervalSince1970: 1_445_412_480)
        XCTAssertEqual(policy.delay(beforeRetry: 1, retryAfter: "Wed, 21 Oct 2015 07:28:03 GMT", now: now), 3)
        XCTAssertEqual(policy.delay(beforeRetry: 1, retryAfter: "120", now: now), 6, "capped at the most")
        XCTAssertFalse(policy.retries(.badStatusCode(404)))
        XCTAssertTrue(policy.retries(.badStatusCode(429)))
        XCTAssertTrue(policy.retries(.network(NetworkFailure(.connectionRefused(host: "h", port: 1)))))
        XCTAssertFalse(policy.retries(.network(NetworkFailure(.refusedAddress(host: "h", why: "private")))))
        XCTAssertFalse(policy.retries(.cancelled))
    }
}
