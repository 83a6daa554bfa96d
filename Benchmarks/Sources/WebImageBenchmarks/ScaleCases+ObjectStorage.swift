import AsyncHTTPClient
import Foundation
import NIOCore

/// `scale.s3.hit`: the `scale.redis.*` requests to fresh instances whose results come from
/// object storage (`--result-storage`, the tier below the local disk), without Redis, which an
/// instance before them filled. The object storage is the moto server `Benchmarks/compare.py`
/// starts, named in `WEBIMAGE_BENCH_S3_ENDPOINT`, with its bucket `bench`; each preparation
/// writes under a prefix of its own.
extension ScaleCases {
    /// No object storage named in the environment: the case cannot run.
    struct MissingObjectStorage: Error, CustomStringConvertible {
        var description: String { "WEBIMAGE_BENCH_S3_ENDPOINT names no object storage (Benchmarks/compare.py starts one)" }
    }

    static var objectStorageHit: BenchmarkCase {
        BenchmarkCase(name: "scale.s3.hit", prepareOperation: {
            guard let endpoint = ProcessInfo.processInfo.environment["WEBIMAGE_BENCH_S3_ENDPOINT"] else { throw MissingObjectStorage() }
            let paths = try resultPaths()
            let storage = ["--result-storage", "s3://bench/run-\(UUID().uuidString)", "--s3-endpoint", endpoint,
                           "--s3-access-key-id", "bench", "--s3-secret-access-key", "bench"]
            try fill(paths, arguments: storage) { maker, client in
                try waitForWrites(paths.count, by: maker, client: client)
            }
            return freshInstances(paths) { storage + ["--cache-dir", $0.path] }
        })
    }

    /// Waits (up to 60 s) until `instance` has written `count` results to object storage, as
    /// its `webimage_object_storage_writes_total` says: it writes them in the background, after
    /// its answers.
    private static func waitForWrites(_ count: Int, by instance: ServeInstance, client: HTTPClient) throws {
        let deadline = Date().addingTimeInterval(60)
        let metrics = instance.baseURL + "/metrics"
        var written = 0
        while Date() < deadline {
            written = try Blocking.await {
                let response = try await client.execute(HTTPClientRequest(url: metrics), timeout: .seconds(10))
                let text = String(buffer: try await response.body.collect(upTo: 4 << 20))
                let line = text.split(separator: "\n").first { $0.hasPrefix("webimage_object_storage_writes_total ") }
                return line.flatMap { Double($0.split(separator: " ").last ?? "") }.map { Int($0) } ?? 0
            }
            if written >= count { return }
            Thread.sleep(forTimeInterval: 0.2)
        }
        throw Failed(description: "webimage serve wrote \(written) of \(count) results to object storage in 60 s")
    }
}
