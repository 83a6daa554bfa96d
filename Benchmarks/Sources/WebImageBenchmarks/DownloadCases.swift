import AsyncHTTPClient
import Foundation
import NIOCore
import Synchronization
import WebImage
import WebImageCodecs

/// `download.2000`: the 2,000 distinct 24 × 24 PNGs in `small/` of the benchmark server (nginx
/// on loopback) through `HTTPImageDownloader` (6 at a time, decoded), against
/// `ref.download.2000`: the same GETs with a bare AsyncHTTPClient, 6 at a time, each body
/// collected and decoded by the same coders on the task that fetched it. Both sides do the
/// same work, so the ratio is what the downloader's queue, joining, limits and events cost.
///
/// `ref.download.2000.floor`: the least SDWebImage's model can do with the same GETs. Every
/// caller asks at once and waits in a queue of 6 slots; each download runs in a task of its
/// own, apart from its callers (so that it can outlive one caller's cancellation, and be
/// cancelled by a timeout or a cancel-all without cancelling a caller's task), and hands its
/// result to the caller waiting. Against it, `download.2000` shows what the downloader's
/// bookkeeping costs beyond that model.
enum DownloadCases {
    static var all: [BenchmarkCase] { [ours, reference, floor] }

    private static let concurrency = 6

    private static var ours: BenchmarkCase {
        BenchmarkCase(name: "download.2000") {
            let urls = try BenchServer.urls(in: "small")
            let downloader = HTTPImageDownloader(configuration: HTTPImageDownloader.Configuration(maxConcurrentDownloads: concurrency))
            let options = ImageLoaderOptions(coders: ImageCoders(WebImageCodecs.defaultCoders))
            return TimedOperation(
                run: {
                    try Blocking.await {
                        try await withThrowingTaskGroup(of: Void.self) { group in
                            for url in urls { group.addTask { _ = try await downloader.image(for: url, options: options) } }
                            try await group.waitForAll()
                        }
                    }
                },
                tearDown: {
                    _ = try? Blocking.await { try await downloader.shutdown() }
                })
        }
    }

    private static var reference: BenchmarkCase {
        bareClientCase("ref.download.2000") { urls, fetch in
            try await withThrowingTaskGroup(of: Void.self) { group in
                var next = urls.makeIterator()
                for _ in 0..<concurrency { if let url = next.next() { group.addTask { try await fetch(url) } } }
                while try await group.next() != nil {
                    if let url = next.next() { group.addTask { try await fetch(url) } }
                }
            }
        }
    }

    private static var floor: BenchmarkCase {
        bareClientCase("ref.download.2000.floor") { urls, fetch in
            let slots = Slots(concurrency)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for url in urls {
                    group.addTask {
                        await slots.take()
                        defer { slots.give() }
                        try await Task { try await fetch(url) }.value
                    }
                }
                try await group.waitForAll()
            }
        }
    }

    /// A reference case named `name` whose downloads are bare AsyncHTTPClient GETs of the 2,000
    /// URLs (``fetchAndDecode(_:client:coders:)``), scheduled by `schedule`, which is given the
    /// URLs and the download to run for each.
    private static func bareClientCase(
        _ name: String,
        schedule: @escaping @Sendable (_ urls: [URL], _ fetch: @escaping @Sendable (URL) async throws -> Void) async throws -> Void
    ) -> BenchmarkCase {
        BenchmarkCase(name: name) {
            let urls = try BenchServer.urls(in: "small")
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            let coders = ImageCoders(WebImageCodecs.defaultCoders)
            return TimedOperation(
                run: {
                    try Blocking.await {
                        try await schedule(urls) { try await fetchAndDecode($0, client: client, coders: coders) }
                    }
                },
                tearDown: {
                    _ = try? Blocking.await { try await client.shutdown() }
                })
        }
    }

    /// One GET of `url`, its body collected and decoded: the work of each download on every side.
    private static func fetchAndDecode(_ url: URL, client: HTTPClient, coders: ImageCoders) async throws {
        let response = try await client.execute(HTTPClientRequest(url: url.absoluteString), timeout: .seconds(15))
        guard response.status == .ok else { throw HTTPClientError.invalidURL }
        let body = try await response.body.collect(upTo: 64 << 20)
        _ = try coders.decode(Data(body.readableBytesView))
    }

    /// A bare FIFO queue of slots for ``floor``: a caller takes a free slot or waits for one.
    private final class Slots: Sendable {
        private let state: Mutex<(free: Int, waiting: [UnsafeContinuation<Void, Never>])>

        init(_ count: Int) {
            state = Mutex((count, []))
        }

        func take() async {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                let granted = state.withLock { state in
                    guard state.free > 0 else {
                        state.waiting.append(continuation)
                        return false
                    }
                    state.free -= 1
                    return true
                }
                if granted { continuation.resume() }
            }
        }

        func give() {
            let next = state.withLock { state -> UnsafeContinuation<Void, Never>? in
                guard !state.waiting.isEmpty else {
                    state.free += 1
                    return nil
                }
                return state.waiting.removeFirst()
            }
            next?.resume()
        }
    }
}
