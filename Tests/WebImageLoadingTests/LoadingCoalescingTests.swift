import Foundation
import LoopbackHTTPServer
import WebImage
import WebImageTestSupport
import XCTest

/// One HTTP request per URL, shared by every caller; cancelling callers one by one.
final class LoadingCoalescingTests: LoadingTestCase {
    typealias Outcome = Result<ImageLoadResult, WebImageError>

    func testHundredConcurrentLoadsMakeOneRequest() async throws {
        let jpeg = try bench("testjfif_256.jpg")
        // Held until every caller asked: however slow the machine, none comes after the answer.
        let gate = routeHeldBack("/photo.jpg", .bytes(jpeg, contentType: "image/jpeg"))
        let downloader = makeDownloader()
        let outcomes = Recorder<Outcome>()
        for _ in 0..<100 {
            downloader.downloadImage(with: server.url("/photo.jpg"), options: options()) { outcomes.append($0) }
        }
        gate.open()
        let allCompleted = await outcomes.wait(for: 100)
        XCTAssertTrue(allCompleted)
        XCTAssertEqual(server.requestCount("/photo.jpg"), 1)
        for outcome in outcomes.all {
            let result = try outcome.get()
            XCTAssertEqual(result.image.pixelWidth, 256)
            XCTAssertEqual(result.image.pixelHeight, 192)
            XCTAssertEqual(result.data, jpeg)
            XCTAssertEqual(result.response.statusCode, 200)
        }
    }

    func testCancellingNinetyNineCallersLeavesTheLastOne() async throws {
        let jpeg = try bench("testjfif_256.jpg")
        let gate = routeHeldBack("/photo.jpg", .bytes(jpeg))
        let downloader = makeDownloader()
        let cancelled = Recorder<Outcome>()
        let tokens = (0..<99).map { _ in
            downloader.downloadImage(with: server.url("/photo.jpg"), options: options()) { cancelled.append($0) }
        }
        let last = Recorder<Outcome>()
        downloader.downloadImage(with: server.url("/photo.jpg"), options: options()) { last.append($0) }
        for token in tokens { token.cancel() }
        XCTAssertEqual(cancelled.count, 99, "a cancelled caller completes at once")
        gate.open()
        for outcome in cancelled.all {
            guard case .failure(.cancelled) = outcome else { return XCTFail("expected cancelled, got \(outcome)") }
        }
        let lastCompleted = await last.wait(for: 1)
        XCTAssertTrue(lastCompleted)
        XCTAssertEqual(try last.all.first?.get().image.pixelWidth, 256)
        XCTAssertEqual(server.requestCount("/photo.jpg"), 1)
        XCTAssertEqual(server.abortedCount("/photo.jpg"), 0)
        for token in tokens { token.cancel() }
        XCTAssertEqual(cancelled.count, 99, "cancelling twice completes once")
    }

    func testCancellingEveryCallerAbortsTheRequest() async throws {
        server.route("/stall.jpg", .neverEnding())
        let downloader = makeDownloader()
        let outcomes = Recorder<Outcome>()
        let tokens = (0..<100).map { _ in
            downloader.downloadImage(with: server.url("/stall.jpg"), options: options()) { outcomes.append($0) }
        }
        let arrived = await server.wait { $0.requestCount("/stall.jpg") == 1 }
        XCTAssertTrue(arrived)
        for token in tokens { token.cancel() }
        XCTAssertEqual(outcomes.count, 100)
        let aborted = await server.wait { $0.abortedCount("/stall.jpg") == 1 }
        XCTAssertTrue(aborted, "the server sees the connection close")
        XCTAssertEqual(server.requestCount("/stall.jpg"), 1)
        XCTAssertTrue(outcomes.all.allSatisfy { if case .failure(.cancelled) = $0 { true } else { false } })
    }

    func testEachCallerGetsItsOwnThumbnailFromOneRequest() async throws {
        let jpeg = try bench("testjfif_1024.jpg")
        // Held until the three callers asked, so that all three share the one request.
        let gate = routeHeldBack("/big.jpg", .bytes(jpeg))
        let downloader = makeDownloader()
        let url = server.url("/big.jpg")
        let (small, medium, full) = (Recorder<Outcome>(), Recorder<Outcome>(), Recorder<Outcome>())
        downloader.downloadImage(with: url, options: options(thumbnail: 64)) { small.append($0) }
        downloader.downloadImage(with: url, options: options(thumbnail: 128)) { medium.append($0) }
        downloader.downloadImage(with: url, options: options()) { full.append($0) }
        gate.open()
        for recorder in [small, medium, full] { _ = await recorder.wait(for: 1) }
        let (a, b, c) = (try XCTUnwrap(small.all.first).get(), try XCTUnwrap(medium.all.first).get(),
                         try XCTUnwrap(full.all.first).get())
        XCTAssertEqual(PixelSize(width: a.image.pixelWidth, height: a.image.pixelHeight), PixelSize(width: 64, height: 48))
        XCTAssertEqual(PixelSize(width: b.image.pixelWidth, height: b.image.pixelHeight), PixelSize(width: 128, height: 96))
        XCTAssertEqual(PixelSize(width: c.image.pixelWidth, height: c.image.pixelHeight), PixelSize(width: 1024, height: 768))
        XCTAssertEqual(server.requestCount("/big.jpg"), 1)
    }

    func testTaskCancellationCancelsTheAsyncLoad() async throws {
        server.route("/stall.jpg", .neverEnding())
        let downloader = makeDownloader()
        let url = server.url("/stall.jpg")
        let options = options()
        let task = Task { try await downloader.image(for: url, options: options) }
        let arrived = await server.wait { $0.requestCount("/stall.jpg") == 1 }
        XCTAssertTrue(arrived)
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("a cancelled load returns no image")
        } catch {
            XCTAssertEqual(error as? WebImageError, .cancelled)
        }
        let aborted = await server.wait { $0.abortedCount("/stall.jpg") == 1 }
        XCTAssertTrue(aborted)
    }

    /// An async caller that waits decodes the shared download for every caller; the one that
    /// asked first leaving hands that work to another.
    func testTheAsyncCallerThatStartedASharedDownloadCanLeaveAndTheOthersStillGetTheImage() async throws {
        let jpeg = try bench("testjfif_256.jpg")
        let gate = routeHeldBack("/photo.jpg", .bytes(jpeg))
        let downloader = makeDownloader()
        let (url, options) = (server.url("/photo.jpg"), options())
        // Started at once: each has joined the download when its task is made.
        let first = Task.immediate { try await downloader.image(for: url, options: options) }
        let others = (0..<4).map { _ in Task.immediate { try await downloader.image(for: url, options: options) } }
        let withCallback = Recorder<Outcome>()
        downloader.downloadImage(with: url, options: options) { withCallback.append($0) }
        first.cancel()
        let error = await loadError { try await first.value }
        XCTAssertEqual(error, .cancelled, "the caller that left gets no image")
        gate.open()
        for other in others {
            let result = try await other.value
            XCTAssertEqual(result.image.pixelWidth, 256)
        }
        let called = await withCallback.wait(for: 1)
        XCTAssertTrue(called)
        XCTAssertEqual(try withCallback.all.first?.get().data, jpeg)
        XCTAssertEqual(server.requestCount("/photo.jpg"), 1)
        XCTAssertEqual(server.abortedCount("/photo.jpg"), 0)
    }

    func testANewCallerAfterCompletionMakesANewRequest() async throws {
        server.route("/photo.jpg", .bytes(try bench("testjfif_256.jpg")))
        let downloader = makeDownloader()
        _ = try await downloader.image(for: server.url("/photo.jpg"), options: options())
        _ = try await downloader.image(for: server.url("/photo.jpg"), options: options())
        XCTAssertEqual(server.requestCount("/photo.jpg"), 2)
    }
}
