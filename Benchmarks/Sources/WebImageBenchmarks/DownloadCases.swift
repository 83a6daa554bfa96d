import AsyncHTTPClient
import Foundation
import NIOCore
import WebImage
import WebImageCodecs

/// `download.2000`: the 2,000 distinct 24 × 24 PNGs in `small/` of the benchmark server (nginx
/// on loopback) through `HTTPImageDownloader` (6 at a time, decoded), against
/// `ref.download.2000`: the same GETs with a bare AsyncHTTPClient, 6 at a time, each body
/// collected and decoded by the same coders on the task that fetched it. Both sides do the
/// same work, so the ratio is what the downloader's queue, joining, limits and events cost.
enum DownloadCases {
    static var all: [BenchmarkCase] { [ours, reference] }

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
        BenchmarkCase(name: "ref.download.2000") {
            let urls = try BenchServer.urls(in: "small")
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            let coders = ImageCoders(WebImageCodecs.defaultCoders)
            return TimedOperation(
                run: {
                    try Blocking.await {
                        try await withThrowingTaskGroup(of: Void.self) { group in
                            var next = urls.makeIterator()
                            func fetch(_ url: URL) async throws {
                                let response = try await client.execute(HTTPClientRequest(url: url.absoluteString), timeout: .seconds(15))
                                guard response.status == .ok else { throw HTTPClientError.invalidURL }
                                let body = try await response.body.collect(upTo: 64 << 20)
                                _ = try coders.decode(Data(body.readableBytesView))
                            }
                            for _ in 0..<concurrency { if let url = next.next() { group.addTask { try await fetch(url) } } }
                            while try await group.next() != nil {
                                if let url = next.next() { group.addTask { try await fetch(url) } }
                            }
                        }
                    }
                },
                tearDown: {
                    _ = try? Blocking.await { try await client.shutdown() }
                })
        }
    }
}
