import AsyncHTTPClient
import Foundation
import LoopbackHTTPServer
import NIOCore
import WebImage
import WebImageCodecs

/// `download.2000`: 2,000 distinct small PNGs from a loopback server through
/// `HTTPImageDownloader` (6 at a time, decoded), against `ref.download.2000`: the same GETs
/// with a bare AsyncHTTPClient, 6 at a time, bodies collected and not decoded.
enum DownloadCases {
    static var all: [BenchmarkCase] { [ours, reference] }

    private static let count = 2_000
    private static let concurrency = 6

    /// A server with `count` distinct 24 × 24 PNGs, and their URLs.
    private static func serve() throws -> (LoopbackHTTPServer, [URL]) {
        let coders = ImageCoders(WebImageCodecs.defaultCoders)
        let server = try Blocking.await { try await LoopbackHTTPServer.start() }
        let urls = try (0..<count).map { index in
            let colour = RGBA(r: UInt8(index % 256), g: UInt8(index / 256 * 30), b: 128)
            let png = try coders.encode(Image(pixels: PixelBuffer(width: 24, height: 24, fill: colour)), as: .png)
            server.route("/\(index).png", .bytes(png, contentType: "image/png"))
            return server.url("/\(index).png")
        }
        return (server, urls)
    }

    private static var ours: BenchmarkCase {
        BenchmarkCase(name: "download.2000") {
            let (server, urls) = try serve()
            let downloader = HTTPImageDownloader(configuration: HTTPImageDownloaderConfiguration(maxConcurrentDownloads: concurrency))
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
                    _ = try? Blocking.await {
                        try await downloader.shutdown()
                        try await server.stop()
                    }
                })
        }
    }

    private static var reference: BenchmarkCase {
        BenchmarkCase(name: "ref.download.2000") {
            let (server, urls) = try serve()
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            return TimedOperation(
                run: {
                    try Blocking.await {
                        try await withThrowingTaskGroup(of: Void.self) { group in
                            var next = urls.makeIterator()
                            func fetch(_ url: URL) async throws {
                                let response = try await client.execute(HTTPClientRequest(url: url.absoluteString), timeout: .seconds(15))
                                guard response.status == .ok else { throw HTTPClientError.invalidURL }
                                _ = try await response.body.collect(upTo: 64 << 20)
                            }
                            for _ in 0..<concurrency { if let url = next.next() { group.addTask { try await fetch(url) } } }
                            while try await group.next() != nil {
                                if let url = next.next() { group.addTask { try await fetch(url) } }
                            }
                        }
                    }
                },
                tearDown: {
                    _ = try? Blocking.await {
                        try await client.shutdown()
                        try await server.stop()
                    }
                })
        }
    }
}
