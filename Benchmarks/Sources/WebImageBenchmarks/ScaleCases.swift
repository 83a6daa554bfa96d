import AsyncHTTPClient
import Foundation
import NIOCore
import WebImageRedis

/// `scale.redis.*`: HTTP requests to `webimage serve` for the first 200 images of the
/// benchmark server's gallery as 300 px WebP results, 8 at a time, each run asked of a fresh
/// instance (a new process: empty memory, an empty or given cache folder), as a second
/// instance started behind a load balancer would be:
///
/// - `scale.redis.hit`: with `--redis`, every result from a warm Redis, which an instance
///   before it filled;
/// - `ref.scale.redis.hit`: without Redis, the same results from the instance's warm local disk
///   (its `--cache-dir` filled by an instance before it);
/// - `scale.redis.cold`: with `--redis` emptied before each run: every source fetched from
///   the benchmark server and every result made, as by the first instance.
///
/// Redis is the server `Benchmarks/compare.py` starts, named in `WEBIMAGE_BENCH_REDIS_URL`.
/// `scale.s3.hit` (ScaleCases+ObjectStorage.swift) reads the results from object storage instead.
enum ScaleCases {
    static let imageCount = 200
    static let concurrency = 8

    /// A request that failed: the case is broken.
    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    /// No Redis named in the environment: the case cannot run.
    struct MissingRedis: Error, CustomStringConvertible {
        var description: String { "WEBIMAGE_BENCH_REDIS_URL names no Redis (Benchmarks/compare.py starts one)" }
    }

    static var all: [BenchmarkCase] { [redisHit, diskHit, cold, objectStorageHit] }

    private static var redisHit: BenchmarkCase {
        BenchmarkCase(name: "scale.redis.hit", prepareOperation: {
            let (paths, redis) = try inputs()
            try clear(redis)
            try fill(paths, arguments: ["--redis", redis])
            return freshInstances(paths) { ["--redis", redis, "--cache-dir", $0.path] }
        })
    }

    private static var diskHit: BenchmarkCase {
        BenchmarkCase(name: "ref.scale.redis.hit", prepareOperation: {
            let (paths, _) = try inputs()
            let warm = temporaryFolder()
            try fill(paths, arguments: ["--cache-dir", warm.path])
            var operation = freshInstances(paths) { _ in ["--cache-dir", warm.path] }
            let tearDown = operation.tearDown
            operation.tearDown = {
                tearDown()
                try? FileManager.default.removeItem(at: warm)
            }
            return operation
        })
    }

    private static var cold: BenchmarkCase {
        BenchmarkCase(name: "scale.redis.cold", prepareOperation: {
            let (paths, redis) = try inputs()
            var operation = freshInstances(paths) { ["--redis", redis, "--cache-dir", $0.path] }
            let setUp = operation.setUp
            operation.setUp = {
                try clear(redis)
                try setUp()
            }
            return operation
        })
    }

    /// The result paths, and the Redis URL the environment names.
    static func inputs() throws -> ([String], String) {
        guard let redis = ProcessInfo.processInfo.environment["WEBIMAGE_BENCH_REDIS_URL"] else { throw MissingRedis() }
        return (try resultPaths(), redis)
    }

    /// The paths of the 300 px WebP results of the first ``imageCount`` gallery images.
    static func resultPaths() throws -> [String] {
        try BenchServer.urls(in: "gallery").prefix(imageCount).map {
            "/insecure/rs:fit:300:300/plain/\($0.absoluteString)@webp"
        }
    }

    /// Runs each asked of a new instance started with `arguments(folder)`, a new folder each.
    static func freshInstances(_ paths: [String], arguments: @escaping (URL) -> [String]) -> TimedOperation {
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        var instance: ServeInstance?
        var folder: URL?
        func finish() {
            instance?.stop()
            instance = nil
            if let folder { try? FileManager.default.removeItem(at: folder) }
            folder = nil
        }
        return TimedOperation(
            setUp: {
                finish()
                let fresh = temporaryFolder()
                folder = fresh
                instance = try ServeInstance(arguments(fresh))
            },
            run: { try request(paths, from: instance!, client: client) },
            tearDown: {
                finish()
                _ = try? Blocking.await { try await client.shutdown() }
            })
    }

    /// Asks a new instance started with `arguments` for every path once, so that its caches
    /// (and Redis, when it has it) hold every result; `settle`, when given, runs before the
    /// instance stops (to wait for writes it makes in the background).
    static func fill(_ paths: [String], arguments: [String],
                     settle: ((ServeInstance, HTTPClient) throws -> Void)? = nil) throws {
        let folder = temporaryFolder()
        let maker = try ServeInstance(arguments.contains("--cache-dir") ? arguments : arguments + ["--cache-dir", folder.path])
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        defer {
            maker.stop()
            _ = try? Blocking.await { try await client.shutdown() }
            try? FileManager.default.removeItem(at: folder)
        }
        try request(paths, from: maker, client: client)
        try settle?(maker, client)
    }

    /// GETs every path from `instance`, ``concurrency`` at a time; throws ``Failed`` unless
    /// every answer is a 200 with a body.
    static func request(_ paths: [String], from instance: ServeInstance, client: HTTPClient) throws {
        let base = instance.baseURL
        try Blocking.await {
            try await withThrowingTaskGroup(of: Void.self) { group in
                var next = paths.makeIterator()
                func get(_ path: String) async throws {
                    let response = try await client.execute(HTTPClientRequest(url: base + path), timeout: .seconds(60))
                    let body = try await response.body.collect(upTo: 16 << 20)
                    guard response.status == .ok, body.readableBytes > 0 else {
                        throw Failed(description: "\(path) answered \(response.status)")
                    }
                }
                for _ in 0..<concurrency { if let path = next.next() { group.addTask { try await get(path) } } }
                while try await group.next() != nil {
                    if let path = next.next() { group.addTask { try await get(path) } }
                }
            }
        }
    }

    /// Deletes every entry of `webimage serve` from the Redis at `url`.
    private static func clear(_ url: String) throws {
        let client = RedisClient(configuration: try RedisConfiguration(url: url))
        try Blocking.await {
            for namespace in ["webimage:source:", "webimage:result:"] {
                await RedisImageCache(client: client, configuration: .init(namespace: namespace)).clear(.disk)
            }
            await client.close()
        }
    }

    static func temporaryFolder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("webimage-scale-\(UUID().uuidString)")
    }
}
