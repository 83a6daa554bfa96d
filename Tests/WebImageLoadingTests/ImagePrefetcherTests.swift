import Foundation
import LoopbackHTTPServer
import WebImage
import WebImageTestSupport
import XCTest

/// The prefetcher against a loopback server.
final class ImagePrefetcherTests: LoadingTestCase {
    private var folder: TemporaryFolder!
    private var manager: ImageManager!

    override func setUp() async throws {
        try await super.setUp()
        folder = try TemporaryFolder(self)
        manager = try makeManager(makeDownloader(), folder: folder.url)
    }

    /// `count` URLs of small JPEGs, each answered after `delay`; the ones in `broken` answer 404.
    private func serve(_ count: Int, broken: Set<Int> = [], delay: Duration = .milliseconds(5)) throws -> [URL] {
        let jpeg = try bench("testjfif_256.jpg")
        return (0..<count).map { index in
            let path = "/p\(index).jpg"
            var response = broken.contains(index) ? LoopbackHTTPResponse.status(404) : .bytes(jpeg, contentType: "image/jpeg")
            response.headDelay = delay
            server.route(path, response)
            return server.url(path)
        }
    }

    func testAHundredURLsThreeAtATimeWithTenBroken() async throws {
        let urls = try serve(100, broken: Set(stride(from: 0, to: 100, by: 10)))
        // The second URL is held until a request arrives after it: two are in flight at once
        // however the machine schedules them.
        let gate = LoopbackHTTPGate()
        var held = LoopbackHTTPResponse.bytes(try bench("testjfif_256.jpg"), contentType: "image/jpeg")
        held.gate = gate
        server.route("/p1.jpg", held)
        let prefetcher = ImagePrefetcher(manager: manager)
        let steps = Recorder<ImagePrefetcher.Progress>()
        let done = Recorder<ImagePrefetcher.Progress>()
        prefetcher.prefetch(urls, progress: { steps.append($0) }, completed: { done.append($0) })
        let overlapped = await server.wait { server in
            let paths = server.requestedPaths
            return paths.firstIndex(of: "/p1.jpg").map { paths.count > $0 + 1 } ?? false
        }
        XCTAssertTrue(overlapped, "\(server.requestedPaths)")
        gate.open()
        let completed = await done.wait(for: 1, timeout: .seconds(30))
        XCTAssertTrue(completed)
        XCTAssertEqual(done.all, [ImagePrefetcher.Progress(finished: 100, skipped: 10, total: 100)])
        XCTAssertEqual(steps.all.map(\.finished), Array(1...100), "one step per URL, in order")
        XCTAssertEqual(steps.all.last?.skipped, 10)
        XCTAssertLessThanOrEqual(server.maxConcurrentRequests, 3, "never more than 3 in flight")
        XCTAssertGreaterThanOrEqual(server.maxConcurrentRequests, 2, "and the limit is used")
        XCTAssertEqual(server.requests.count, 100, "each URL requested once")
        XCTAssertNotNil(manager.imageFromMemory(for: urls[1]), "prefetched images are cached")
        try await Task.sleep(for: .milliseconds(100))
        XCTAssertEqual(done.count, 1, "completed once")
    }

    func testTheLimitHoldsAcrossPrefetches() async throws {
        let urls = try serve(20)
        let prefetcher = ImagePrefetcher(manager: manager, maxConcurrentPrefetchCount: 2)
        let done = Recorder<ImagePrefetcher.Progress>()
        prefetcher.prefetch(Array(urls[..<10]), completed: { done.append($0) })
        prefetcher.prefetch(Array(urls[10...]), completed: { done.append($0) })
        let completed = await done.wait(for: 2)
        XCTAssertTrue(completed)
        XCTAssertLessThanOrEqual(server.maxConcurrentRequests, 2, "the limit holds across prefetches")
    }

    func testCancelStopsThePrefetchWithoutACompletion() async throws {
        let urls = try serve(30, delay: .milliseconds(100))
        let prefetcher = ImagePrefetcher(manager: manager)
        let steps = Recorder<ImagePrefetcher.Progress>()
        let done = Recorder<ImagePrefetcher.Progress>()
        let token = prefetcher.prefetch(urls, progress: { steps.append($0) }, completed: { done.append($0) })
        _ = await steps.wait(for: 1)
        token.cancel()
        let reported = steps.count
        try await Task.sleep(for: .milliseconds(600))
        XCTAssertEqual(done.count, 0, "no completion after cancel")
        XCTAssertLessThanOrEqual(steps.count, reported + 1, "at most a step already on its way")
        XCTAssertLessThan(server.requests.count, 15, "the remaining URLs were not requested")
    }

    func testAnEmptyListCompletesAtOnce() async throws {
        let done = Recorder<ImagePrefetcher.Progress>()
        ImagePrefetcher(manager: manager).prefetch([], completed: { done.append($0) })
        let completed = await done.wait(for: 1)
        XCTAssertTrue(completed)
        XCTAssertEqual(done.all, [ImagePrefetcher.Progress(finished: 0, skipped: 0, total: 0)])
    }

    func testTheAsyncSequenceForm() async throws {
        let urls = try serve(8, broken: [3])
        var last: ImagePrefetcher.Progress?
        var count = 0
        for await step in ImagePrefetcher(manager: manager).progress(for: urls) {
            count += 1
            last = step
        }
        XCTAssertEqual(count, 8)
        XCTAssertEqual(last, ImagePrefetcher.Progress(finished: 8, skipped: 1, total: 8))
    }
}
