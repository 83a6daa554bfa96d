import Foundation
import LoopbackHTTPServer
import WebImage
import WebImageTestSupport
import XCTest

/// Typed errors for what servers do wrong, and which of them are permanent.
final class LoadingErrorTests: LoadingTestCase {
    /// Why a 0.5 s timeout is allowed 10 s: a loaded machine may fire its timer late, while a
    /// timeout not applied would wait for the default 15 s, and a hung load for ever.
    static let timedOutNotHung = "timed out at its own timeout, not the default one, and not hung"

    func testNotFoundIsAPermanentBadStatusCode() async throws {
        let downloader = makeDownloader()
        let url = server.url("/missing.jpg")
        let error = await loadError { try await downloader.image(for: url, options: options()) }
        XCTAssertEqual(error, .badStatusCode(404))
        XCTAssertEqual(error?.isPermanent, true)
        XCTAssertTrue(downloader.shouldBlockFailedURL(url, error: error!))
        XCTAssertTrue(error!.description.contains("404"))
    }

    func testServerErrorsAndRateLimitsAreNotPermanent() async throws {
        server.route("/busy.jpg", .status(503))
        server.route("/slow-down.jpg", .status(429))
        let downloader = makeDownloader()
        let busy = await loadError { try await downloader.image(for: server.url("/busy.jpg"), options: options()) }
        XCTAssertEqual(busy, .badStatusCode(503))
        XCTAssertEqual(busy?.isPermanent, false)
        let limited = await loadError { try await downloader.image(for: server.url("/slow-down.jpg"), options: options()) }
        XCTAssertEqual(limited, .badStatusCode(429))
        XCTAssertEqual(limited?.isPermanent, false)
    }

    func testHTMLIsBadImageData() async throws {
        server.route("/page", .html())
        let downloader = makeDownloader()
        let error = await loadError { try await downloader.image(for: server.url("/page"), options: options()) }
        XCTAssertEqual(error, .badImageData(.unsupportedFormat(.undefined)))
        XCTAssertEqual(error?.isPermanent, true)
    }

    func testHTMLIsAnInvalidContentTypeWhenTypesAreRestricted() async throws {
        server.route("/page", .html())
        let downloader = makeDownloader { $0.acceptableContentTypes = ["image/*"] }
        let error = await loadError { try await downloader.image(for: server.url("/page"), options: options()) }
        XCTAssertEqual(error, .invalidContentType("text/html"))
    }

    func testBodyOverTheLimitIsTooLarge() async throws {
        let jpeg = try bench("testjfif_256.jpg")
        server.route("/photo.jpg", LoopbackHTTPResponse(headers: [("Transfer-Encoding", "chunked")], chunks: [jpeg]))
        let downloader = makeDownloader { $0.maxBytes = 10_000 }
        let error = await loadError { try await downloader.image(for: server.url("/photo.jpg"), options: options()) }
        XCTAssertEqual(error, .tooLarge(limit: 10_000))
    }

    func testAnnouncedLengthOverTheLimitStopsBeforeTheBody() async throws {
        server.route("/huge.jpg", LoopbackHTTPResponse(headers: [("Content-Length", "1000000000")], chunks: [Data(count: 64)], neverEnds: true))
        let downloader = makeDownloader()
        let error = await loadError { try await downloader.image(for: server.url("/huge.jpg"), options: options()) }
        XCTAssertEqual(error, .tooLarge(limit: 64 << 20))
        let aborted = await server.wait { $0.abortedCount("/huge.jpg") == 1 }
        XCTAssertTrue(aborted, "the download stops instead of reading a gigabyte")
    }

    func testStalledBodyTimesOut() async throws {
        server.route("/stall.jpg", .neverEnding())
        let downloader = makeDownloader { $0.downloadTimeout = 0.5 }
        let start = ContinuousClock.now
        let error = await loadError { try await downloader.image(for: server.url("/stall.jpg"), options: options()) }
        let elapsed = ContinuousClock.now - start
        XCTAssertEqual(error, .timedOut(seconds: 0.5))
        XCTAssertEqual(error?.description, "no data from the server within 0.5 s")
        XCTAssertEqual(error?.isPermanent, false)
        XCTAssertGreaterThanOrEqual(elapsed, .milliseconds(400))
        XCTAssertLessThan(elapsed, .seconds(10), Self.timedOutNotHung)
    }

    func testABodyThatKeepsTricklingOutlastsTheTimeout() async throws {
        // 12 parts 0.15 s apart: over 1.5 s in all, longer than the 1 s timeout, but never more
        // than 0.15 s of silence (a loaded machine may stretch a gap several times and still pass).
        let jpeg = try bench("testjfif_256.jpg")
        server.route("/trickle.jpg", .slow(jpeg, chunkSize: jpeg.count / 12 + 1, delay: .milliseconds(150)))
        let downloader = makeDownloader { $0.downloadTimeout = 1 }
        let start = ContinuousClock.now
        let result = try await downloader.image(for: server.url("/trickle.jpg"), options: options())
        XCTAssertGreaterThan(ContinuousClock.now - start, .milliseconds(1500), "the body took longer than the timeout")
        XCTAssertEqual(result.data.count, jpeg.count)
        XCTAssertEqual(result.image.pixelWidth, 256)
    }

    func testABodyThatStallsMidwayTimesOut() async throws {
        let jpeg = try bench("testjfif_256.jpg")
        server.route("/half.jpg", LoopbackHTTPResponse(
            headers: [("Content-Length", "\(jpeg.count)")], chunks: [jpeg.prefix(jpeg.count / 2)], neverEnds: true))
        let downloader = makeDownloader { $0.downloadTimeout = 0.5 }
        let start = ContinuousClock.now
        let error = await loadError { try await downloader.image(for: server.url("/half.jpg"), options: options()) }
        XCTAssertEqual(error, .timedOut(seconds: 0.5))
        XCTAssertGreaterThanOrEqual(ContinuousClock.now - start, .milliseconds(500))
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(10), Self.timedOutNotHung)
        await assertNothingLeft(downloader)
    }

    func testZeroTimeoutMeansFifteenSeconds() {
        var configuration = HTTPImageDownloader.Configuration(downloadTimeout: 0)
        XCTAssertEqual(configuration.effectiveTimeout, 15)
        configuration.downloadTimeout = 2
        XCTAssertEqual(configuration.effectiveTimeout, 2)
    }

    func testUnreachableServerIsANetworkError() async throws {
        let url = server.url("/photo.jpg")
        try await server.stop()
        server = try await LoopbackHTTPServer.start()
        let downloader = makeDownloader { $0.downloadTimeout = 2 }
        let error = await loadError { try await downloader.image(for: url, options: options()) }
        guard case .network(let failure)? = error else { return XCTFail("expected a network error, got \(String(describing: error))") }
        XCTAssertEqual(failure.reason, .connectionRefused(host: "127.0.0.1", port: try XCTUnwrap(url.port)))
        XCTAssertEqual(error?.description, "connection refused by 127.0.0.1:\(try XCTUnwrap(url.port))")
        XCTAssertNotNil(error?.underlyingCause, "the NIO error is kept")
        XCTAssertEqual(error?.isPermanent, false)
    }

    func testAnUnknownHostIsNotFound() async throws {
        // .invalid never resolves (RFC 6761).
        let error = await loadError { try await makeDownloader().image(for: URL(string: "http://nowhere.invalid/a.jpg")!, options: options()) }
        guard case .network(let failure)? = error else { return XCTFail("expected a network error, got \(String(describing: error))") }
        XCTAssertEqual(failure.reason, .hostNotFound("nowhere.invalid"))
        XCTAssertEqual(error?.description, "the host nowhere.invalid was not found")
        XCTAssertEqual(error?.isPermanent, false)
    }

    func testNonHTTPURLIsInvalid() async throws {
        let downloader = makeDownloader()
        let url = URL(string: "ftp://127.0.0.1/photo.jpg")!
        XCTAssertFalse(downloader.canRequest(url))
        let error = await loadError { try await downloader.image(for: url, options: options()) }
        guard case .invalidURL = error else { return XCTFail("expected invalidURL, got \(String(describing: error))") }
        XCTAssertEqual(error?.isPermanent, true)
    }

    func testPermanenceOfEveryError() {
        let permanent: [WebImageError] = [
            .invalidURL("x"), .badImageData(.empty), .invalidContentType("text/html"), .tooLarge(limit: 1),
            .badStatusCode(400), .badStatusCode(403), .badStatusCode(404), .badStatusCode(410),
        ]
        let transient: [WebImageError] = [
            .cacheNotModified, .failedURL, .invalidDownloadOperation, .cancelled, .invalidDownloadResponse,
            .timedOut(seconds: 15), .network(NetworkFailure(.connectionRefused(host: "example.com", port: 80))), .badStatusCode(408), .badStatusCode(429),
            .badStatusCode(500), .badStatusCode(503), .badStatusCode(302),
        ]
        for error in permanent { XCTAssertTrue(error.isPermanent, "\(error)") }
        for error in transient { XCTAssertFalse(error.isPermanent, "\(error)") }
        for error in permanent + transient { XCTAssertFalse(error.description.isEmpty) }
    }

    func testAServerThatNeverAnswersTimesOut() async throws {
        var silent = LoopbackHTTPResponse.bytes(try bench("testjfif_256.jpg"))
        silent.headDelay = .seconds(60)
        server.route("/silent.jpg", silent)
        let downloader = makeDownloader { $0.downloadTimeout = 0.5 }
        let start = ContinuousClock.now
        let error = await loadError { try await downloader.image(for: server.url("/silent.jpg"), options: options()) }
        XCTAssertEqual(error, .timedOut(seconds: 0.5))
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(10), Self.timedOutNotHung)
        await assertNothingLeft(downloader)
    }

    func testAResponseModifierThatWaitsIsCancelledByTheTimeout() async throws {
        server.route("/photo.jpg", .bytes(try bench("testjfif_256.jpg")))
        let downloader = makeDownloader { $0.downloadTimeout = 0.5 }
        var waiting = options()
        waiting.responseModifier = { response in
            try await Task.sleep(for: .seconds(60))
            return response
        }
        let start = ContinuousClock.now
        let error = await loadError { try await downloader.image(for: self.server.url("/photo.jpg"), options: waiting) }
        XCTAssertEqual(error, .timedOut(seconds: 0.5))
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(10), Self.timedOutNotHung)
        await assertNothingLeft(downloader)
    }

    /// AsyncHTTPClient refuses a request with a line break in a field value before sending it;
    /// a queue of such requests ends one after another, not each inside the one before.
    func testAQueueOfRequestsRefusedAtOnceEndsWithoutGoingDeeper() async throws {
        for slots in [1, 1_000] {
            let downloader = makeDownloader { $0.maxConcurrentDownloads = slots }
            downloader.setValue("Bearer x\r\nX-Injected: 1", forHTTPHeaderField: "Authorization")
            let count = 5_000
            let outcomes = Recorder<Result<ImageLoadResult, WebImageError>>()
            for index in 0..<count {
                downloader.downloadImage(with: server.url("/\(index).jpg"), options: options()) { outcomes.append($0) }
            }
            let allCompleted = await outcomes.wait(for: count)
            XCTAssertTrue(allCompleted, "\(slots) slots")
            XCTAssertTrue(outcomes.all.allSatisfy { if case .failure(.network) = $0 { true } else { false } },
                          "\(slots) slots: \(String(describing: outcomes.all.first))")
            XCTAssertEqual(server.requests.count, 0, "nothing was sent")
            await assertNothingLeft(downloader)
        }
    }

    func testARedirectLoopFails() async throws {
        server.route("/a.jpg", LoopbackHTTPResponse(status: 302, headers: [("Location", "/b.jpg")]))
        server.route("/b.jpg", LoopbackHTTPResponse(status: 302, headers: [("Location", "/a.jpg")]))
        let downloader = makeDownloader()
        let error = await loadError { try await downloader.image(for: server.url("/a.jpg"), options: options()) }
        guard case .network(let failure)? = error else { return XCTFail("expected a network error, got \(String(describing: error))") }
        XCTAssertEqual(failure.reason, .redirectLoop)
        XCTAssertEqual(error?.description, "the redirects lead in a loop")
        XCTAssertTrue(failure.cause?.contains("redirectCycleDetected") == true, "\(String(describing: failure.cause))")
        XCTAssertLessThanOrEqual(server.requests.count, 11, "the loop is cut off")
        await assertNothingLeft(downloader)
    }

    func testAConnectionResetMidBodyIsANetworkError() async throws {
        let jpeg = try bench("testjfif_1024.jpg")
        server.route("/cut.jpg", LoopbackHTTPResponse(headers: [("Content-Length", "\(jpeg.count)")],
                                                       chunks: [jpeg.prefix(jpeg.count / 2)], closesEarly: true))
        let downloader = makeDownloader()
        let error = await loadError { try await downloader.image(for: server.url("/cut.jpg"), options: options()) }
        guard case .network? = error else { return XCTFail("expected a network error, got \(String(describing: error))") }
        XCTAssertEqual(error?.isPermanent, false, "a cut connection is worth another try")
        await assertNothingLeft(downloader)
    }

    /// No download still counted by the downloader and no response still open on the server.
    private func assertNothingLeft(_ downloader: HTTPImageDownloader, file: StaticString = #filePath, line: UInt = #line) async {
        let idle = await server.wait { $0.requestsInFlight == 0 }
        XCTAssertTrue(idle, "the server still has \(server.requestsInFlight) responses open", file: file, line: line)
        XCTAssertEqual(downloader.currentDownloadCount, 0, "downloads left running", file: file, line: line)
    }
}
