import Foundation
import WebImage
import WebImageTestSupport
import XCTest

/// One HTTP request per URL, shared by every caller; cancelling callers one by one.
final class LoadingCoalescingTests: LoadingTestCase {
    typealias Outcome = Result<ImageLoadResult, WebImageError>

    func testHundredConcurrentLoadsMakeOneRequest() async throws {
        let jpeg = try bench("testjfif_256.jpg")
        server.route("/photo.jpg", .bytes(jpeg, contentType: "image/jpeg", delay: .milliseconds(300)))
        let downloader = makeDownloader()
        let outcomes = Recorder<Outcome>()
        for _ in 0..<100 {
            downloader.downloadImage(with: server.url("/photo.jpg"), options: options()) { outcomes.append($0) }
        }
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
        server.route("/photo.jpg", .bytes(jpeg, delay: .milliseconds(300)))
        let downloader = makeDownloader()
        let cancelled = Recorder<Outcome>()
        let tokens = (0..<99).map { _ in
            downloader.downloadImage(with: server.url("/photo.jpg"), options: options()) { cancelled.append($0) }
        }
        let last = Recorder<Outcome>()
        downloader.downloadImage(with: server.url("/photo.jpg"), options: options()) { last.append($0) }
        for token in tokens { token.cancel() }
        XCTAssertEqual(cancelled.count, 99, "a cancelled caller completes at once")
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
        server.route("/big.jpg", .bytes(jpeg, delay: .milliseconds(200)))
        let downloader = makeDownloader()
        let url = server.url("/big.jpg")
        let (smallOptions, mediumOptions, fullOptions) = (options(thumbnail: 64), options(thumbnail: 128), options())
        async let small = downloader.image(for: url, options: smallOptions)
        async let medium = downloader.image(for: url, options: mediumOptions)
        async let full = downloader.image(for: url, options: fullOptions)
        let (a, b, c) = try await (small, medium, full)
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

    func testANewCallerAfterCompletionMakesANewRequest() async throws {
        server.route("/photo.jpg", .bytes(try bench("testjfif_256.jpg")))
        let downloader = makeDownloader()
        _ = try await downloader.image(for: server.url("/photo.jpg"), options: options())
        _ = try await downloader.image(for: server.url("/photo.jpg"), options: options())
        XCTAssertEqual(server.requestCount("/photo.jpg"), 2)
    }
}
