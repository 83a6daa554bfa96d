import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization
import WebImage
import WebImageCodecs

/// `download.2000`: the 2,000 distinct 24 × 24 PNGs in `small/` of the benchmark server (nginx
/// on loopback) through `HTTPImageDownloader` (6 at a time, decoded), against
/// `ref.download.2000`: the same GETs with a bare AsyncHTTPClient, 6 at a time, each body
/// collected and decoded by the same coders on the task that fetched it. Both sides do the
/// same work, so the ratio is what the downloader's queue, joining, limits and events cost.
///
/// `ref.download.2000.floor`: the least the downloader's model can do with the same GETs. Every
/// caller asks at once and waits in a queue of 6 slots; as a slot frees, the next GET goes out
/// through AsyncHTTPClient's delegate API (no task of its own, so that it can outlive one
/// caller's cancellation and be cancelled apart from any caller's task), collects its body on
/// the event loop and hands it to the caller waiting, who decodes it and frees the slot. Against it,
/// `download.2000` shows what the downloader's bookkeeping (joining, priorities, limits, events,
/// the idle watchdog) costs beyond that model.
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
        bareClientCase("ref.download.2000") { urls, client, coders in
            let fetch = { @Sendable (url: URL) in try await fetchAndDecode(url, client: client, coders: coders) }
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
        bareClientCase("ref.download.2000.floor") { urls, client, coders in
            let queue = ExchangeQueue(client: client, slots: concurrency)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for url in urls {
                    group.addTask { try await queue.withBody(of: url) { _ = try coders.decode(Data($0.readableBytesView)) } }
                }
                try await group.waitForAll()
            }
        }
    }

    /// A reference case named `name` whose downloads are bare AsyncHTTPClient GETs of the 2,000
    /// URLs, made and decoded by `download`, which is given the URLs, a client and the coders.
    private static func bareClientCase(
        _ name: String,
        download: @escaping @Sendable (_ urls: [URL], _ client: HTTPClient, _ coders: ImageCoders) async throws -> Void
    ) -> BenchmarkCase {
        BenchmarkCase(name: name) {
            let urls = try BenchServer.urls(in: "small")
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            let coders = ImageCoders(WebImageCodecs.defaultCoders)
            return TimedOperation(
                run: {
                    try Blocking.await {
                        try await download(urls, client, coders)
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

    /// The bare queue of ``floor``: a GET goes out through AsyncHTTPClient's delegate API when
    /// one of the slots is free, and holds it until its body has been used.
    private final class ExchangeQueue: Sendable {
        private typealias Waiter = (url: URL, continuation: UnsafeContinuation<Result<ByteBuffer, any Error>, Never>)
        private let client: HTTPClient
        private let state: Mutex<(free: Int, waiting: [Waiter])>

        init(client: HTTPClient, slots: Int) {
            self.client = client
            state = Mutex((slots, []))
        }

        /// Hands the body of a GET of `url` (status 200 only), sent once a slot is free, to
        /// `use`; the slot is free again when `use` returns.
        func withBody(of url: URL, _ use: (ByteBuffer) throws -> Void) async throws {
            let body = await withUnsafeContinuation { (continuation: UnsafeContinuation<Result<ByteBuffer, any Error>, Never>) in
                let startsNow = state.withLock { state in
                    guard state.free > 0 else {
                        state.waiting.append((url, continuation))
                        return false
                    }
                    state.free -= 1
                    return true
                }
                if startsNow { start((url, continuation)) }
            }
            defer { freeSlot() }
            try use(try body.get())
        }

        private func freeSlot() {
            let next = state.withLock { state -> Waiter? in
                guard !state.waiting.isEmpty else {
                    state.free += 1
                    return nil
                }
                return state.waiting.removeFirst()
            }
            if let next { start(next) }
        }

        private func start(_ waiter: Waiter) {
            let request: HTTPClient.Request
            do {
                request = try HTTPClient.Request(url: waiter.url)
            } catch {
                waiter.continuation.resume(returning: .failure(error))
                return
            }
            client.execute(request: request, delegate: BodyCollector()).futureResult.whenComplete { result in
                waiter.continuation.resume(returning: result)
            }
        }
    }

    /// Collects a response body on the event loop, as ``ExchangeQueue``'s delegate.
    private final class BodyCollector: HTTPClientResponseDelegate, @unchecked Sendable {
        private var body = ByteBuffer()
        private var isOK = false

        func didReceiveHead(task: HTTPClient.Task<ByteBuffer>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
            isOK = head.status == .ok
            return task.eventLoop.makeSucceededVoidFuture()
        }

        func didReceiveBodyPart(task: HTTPClient.Task<ByteBuffer>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
            var buffer = buffer
            body.writeBuffer(&buffer)
            return task.eventLoop.makeSucceededVoidFuture()
        }

        func didFinishRequest(task: HTTPClient.Task<ByteBuffer>) throws -> ByteBuffer {
            guard isOK else { throw HTTPClientError.invalidURL }
            return body
        }
    }
}
