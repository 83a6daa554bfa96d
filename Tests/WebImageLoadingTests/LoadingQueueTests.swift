import Foundation
import WebImage
import WebImageTestSupport
import XCTest

/// The download queue: the concurrency limit, FIFO and LIFO, priorities, suspend and resume.
final class LoadingQueueTests: LoadingTestCase {
    typealias Outcome = Result<ImageLoadResult, WebImageError>

    func testNeverMoreThanTheLimitInFlight() async throws {
        let jpeg = try bench("testjfif_256.jpg")
        let paths = (0..<20).map { "/image\($0).jpg" }
        for path in paths { server.route(path, .bytes(jpeg, delay: .milliseconds(100))) }
        let downloader = makeDownloader()
        XCTAssertEqual(downloader.configuration.maxConcurrentDownloads, 6)
        let outcomes = Recorder<Outcome>()
        for path in paths {
            downloader.downloadImage(with: server.url(path), options: options()) { outcomes.append($0) }
        }
        let allCompleted = await outcomes.wait(for: 20)
        XCTAssertTrue(allCompleted)
        XCTAssertEqual(outcomes.all.filter { (try? $0.get()) != nil }.count, 20)
        XCTAssertLessThanOrEqual(server.maxConcurrentRequests, 6, "never more than the limit at once")
        XCTAssertGreaterThanOrEqual(server.maxConcurrentRequests, 3, "requests do run side by side")
        XCTAssertEqual(server.requests.count, 20)
    }

    /// Queues `paths` with `priorities` on a suspended one-at-a-time downloader, resumes, and
    /// returns the order in which the server saw them.
    private func serverOrder(_ order: DownloadExecutionOrder, _ queued: [(path: String, priority: DownloadPriority)])
        async throws -> [String]
    {
        let jpeg = try bench("testjfif_256.jpg")
        for (path, _) in queued { server.route(path, .bytes(jpeg, delay: .milliseconds(20))) }
        let downloader = makeDownloader {
            $0.maxConcurrentDownloads = 1
            $0.executionOrder = order
        }
        downloader.suspend()
        let outcomes = Recorder<Outcome>()
        for (path, priority) in queued {
            downloader.downloadImage(with: server.url(path), options: options(priority: priority)) { outcomes.append($0) }
        }
        try await Task.sleep(for: .milliseconds(100))
        XCTAssertEqual(server.requests.count, 0, "a suspended downloader starts nothing")
        downloader.resume()
        let allCompleted = await outcomes.wait(for: queued.count)
        XCTAssertTrue(allCompleted)
        return server.requestedPaths
    }

    /// Requests that fail before they first wait (a request modifier that drops them) each free
    /// their slot for the next at once: a long queue of them must not start each next one
    /// inside the last, a stack frame deeper each time.
    func testALongQueueOfRequestsThatFailAtOnceDrainsWithoutDeepening() async throws {
        let downloader = makeDownloader { $0.maxConcurrentDownloads = 1 }
        let dropped = droppingOptions()
        downloader.suspend()
        let outcomes = Recorder<Outcome>()
        for index in 0..<Self.droppedCount {
            downloader.downloadImage(with: server.url("/dropped\(index).jpg"), options: dropped) { outcomes.append($0) }
        }
        downloader.resume()
        await assertEveryRequestDropped(outcomes)
    }

    /// A completion that asks for the next image, when each request fails before it is sent,
    /// must not start each next request inside the last one's completion, a stack frame deeper
    /// each time.
    func testCompletionsThatAskForTheNextImageChainWithoutDeepening() async throws {
        let downloader = makeDownloader { $0.maxConcurrentDownloads = 1 }
        let dropped = droppingOptions()
        let outcomes = Recorder<Outcome>()
        let base = server.url("/chained").absoluteString
        @Sendable func load(_ index: Int) {
            downloader.downloadImage(with: URL(string: "\(base)\(index).jpg")!, options: dropped) { outcome in
                outcomes.append(outcome)
                if index + 1 < Self.droppedCount { load(index + 1) }
            }
        }
        load(0)
        await assertEveryRequestDropped(outcomes)
    }

    /// How many requests the tests of requests dropped before they are sent make.
    private static let droppedCount = 50_000

    /// Options whose request modifier drops every request before it is sent.
    private func droppingOptions() -> ImageLoaderOptions {
        var dropping = options()
        dropping.requestModifier = { _ in nil }
        return dropping
    }

    /// Waits for ``droppedCount`` outcomes and checks each request failed unsent.
    private func assertEveryRequestDropped(_ outcomes: Recorder<Outcome>) async {
        let allCompleted = await outcomes.wait(for: Self.droppedCount)
        XCTAssertTrue(allCompleted)
        XCTAssertTrue(outcomes.all.allSatisfy { $0.failure == .invalidDownloadOperation })
        XCTAssertEqual(server.requests.count, 0)
    }

    func testFIFOOrder() async throws {
        let order = try await serverOrder(.fifo, [("/a", .normal), ("/b", .normal), ("/c", .normal), ("/d", .normal)])
        XCTAssertEqual(order, ["/a", "/b", "/c", "/d"])
    }

    func testLIFOOrder() async throws {
        let order = try await serverOrder(.lifo, [("/a", .normal), ("/b", .normal), ("/c", .normal), ("/d", .normal)])
        XCTAssertEqual(order, ["/d", "/c", "/b", "/a"])
    }

    func testPriorityComesFirst() async throws {
        let order = try await serverOrder(.fifo, [("/a", .low), ("/b", .normal), ("/c", .high), ("/d", .normal), ("/e", .high)])
        XCTAssertEqual(order, ["/c", "/e", "/b", "/d", "/a"])
    }

    func testQueuedRequestMovesUpWhenAMoreUrgentCallerJoins() async throws {
        let jpeg = try bench("testjfif_256.jpg")
        for path in ["/a", "/b", "/c"] { server.route(path, .bytes(jpeg)) }
        let downloader = makeDownloader { $0.maxConcurrentDownloads = 1 }
        downloader.suspend()
        let outcomes = Recorder<Outcome>()
        for path in ["/a", "/b", "/c"] {
            downloader.downloadImage(with: server.url(path), options: options(priority: .low)) { outcomes.append($0) }
        }
        downloader.downloadImage(with: server.url("/c"), options: options(priority: .high)) { outcomes.append($0) }
        downloader.resume()
        let allCompleted = await outcomes.wait(for: 4)
        XCTAssertTrue(allCompleted)
        XCTAssertEqual(server.requestedPaths, ["/c", "/a", "/b"])
    }

    func testCancelledQueuedRequestIsNeverSent() async throws {
        let jpeg = try bench("testjfif_256.jpg")
        for path in ["/a", "/b"] { server.route(path, .bytes(jpeg)) }
        let downloader = makeDownloader()
        downloader.suspend()
        let outcomes = Recorder<Outcome>()
        let token = downloader.downloadImage(with: server.url("/a"), options: options()) { outcomes.append($0) }
        downloader.downloadImage(with: server.url("/b"), options: options()) { outcomes.append($0) }
        token.cancel()
        downloader.resume()
        let allCompleted = await outcomes.wait(for: 2)
        XCTAssertTrue(allCompleted)
        XCTAssertEqual(server.requestedPaths, ["/b"])
    }

    func testShutdownCancelsAndRefusesLaterRequests() async throws {
        server.route("/stall.jpg", .neverEnding())
        let downloader = HTTPImageDownloader()
        let outcomes = Recorder<Outcome>()
        downloader.downloadImage(with: server.url("/stall.jpg"), options: options()) { outcomes.append($0) }
        _ = await server.wait { $0.requestCount("/stall.jpg") == 1 }
        try await downloader.shutdown()
        downloader.downloadImage(with: server.url("/stall.jpg"), options: options()) { outcomes.append($0) }
        XCTAssertEqual(outcomes.count, 2)
        guard case .failure(.cancelled) = outcomes.all[0] else { return XCTFail("\(outcomes.all[0])") }
        guard case .failure(.invalidDownloadOperation) = outcomes.all[1] else { return XCTFail("\(outcomes.all[1])") }
    }
}
