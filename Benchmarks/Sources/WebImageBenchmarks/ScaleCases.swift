import Foundation
import WebImage
import WebImageCodecs
import WebImageRedis
import WebImageServer

/// `scale.redis.*`: the first 200 images of the benchmark server's gallery as 300 px WebP
/// results through `ImageProcessor` (the pipeline of `webimage serve`), 6 requests at a time,
/// each run by a fresh instance (empty memory, an empty local disk of its own, a new Redis
/// connection), as a second `webimage serve` started behind a load balancer would be:
///
/// - `scale.redis.hit`: every result from a warm Redis tier, which an instance before it filled;
/// - `ref.scale.redis.hit`: the same results from the instance's warm local disk, without Redis;
/// - `scale.redis.cold`: an empty Redis (cleared before each run): every source fetched from
///   the server and every result made, as by the first instance.
///
/// Redis is the server `Benchmarks/compare.py` starts, named in `WEBIMAGE_BENCH_REDIS_URL`.
enum ScaleCases {
    static let imageCount = 200
    static let concurrency = GalleryCase.concurrency

    /// A result that did not come from where the case says: the case is broken.
    struct Broken: Error, CustomStringConvertible {
        let description: String
    }

    /// No Redis named in the environment: the case cannot run.
    struct MissingRedis: Error, CustomStringConvertible {
        var description: String { "WEBIMAGE_BENCH_REDIS_URL names no Redis (Benchmarks/compare.py starts one)" }
    }

    static var all: [BenchmarkCase] { [redisHit, diskHit, cold] }

    private static var redisHit: BenchmarkCase {
        BenchmarkCase(name: "scale.redis.hit", prepareOperation: {
            let (urls, redis) = try inputs()
            try fill(urls, redis: redis)
            return freshInstances(urls: urls, redis: redis, expecting: .shared)
        })
    }

    private static var diskHit: BenchmarkCase {
        BenchmarkCase(name: "ref.scale.redis.hit", prepareOperation: {
            let (urls, _) = try inputs()
            let folder = temporaryFolder("disk")
            let maker = try Instance(folder: folder, redis: nil)
            defer { maker.close() }
            try maker.process(urls, expecting: .made)
            var instance: Instance?
            return TimedOperation(
                setUp: {
                    instance?.close()
                    instance = try Instance(folder: folder, redis: nil)
                },
                run: { try instance!.process(urls, expecting: .disk) },
                tearDown: {
                    instance?.close()
                    try? FileManager.default.removeItem(at: folder)
                })
        })
    }

    private static var cold: BenchmarkCase {
        BenchmarkCase(name: "scale.redis.cold", prepareOperation: {
            let (urls, redis) = try inputs()
            var operation = freshInstances(urls: urls, redis: redis, expecting: .made)
            let prepare = operation.setUp
            operation.setUp = {
                try clear(redis)
                try prepare()
            }
            return operation
        })
    }

    /// The result URLs and the Redis configuration the environment names.
    private static func inputs() throws -> ([ProcessingURL], RedisConfiguration) {
        guard let text = ProcessInfo.processInfo.environment["WEBIMAGE_BENCH_REDIS_URL"] else { throw MissingRedis() }
        let parser = ProcessingURLParser()
        let urls = try BenchServer.urls(in: "gallery").prefix(imageCount).map {
            try parser.parse("/insecure/rs:fit:300:300/plain/\($0.absoluteString)@webp")
        }
        return (urls, try RedisConfiguration(url: text))
    }

    /// Runs by a new instance each, in a new folder, over `redis`, each result coming from `source`.
    private static func freshInstances(urls: [ProcessingURL], redis: RedisConfiguration,
                                       expecting source: ResultSource) -> TimedOperation {
        var instance: Instance?
        func finish() {
            instance?.close()
            if let instance { try? FileManager.default.removeItem(at: instance.folder) }
            instance = nil
        }
        return TimedOperation(
            setUp: {
                finish()
                instance = try Instance(folder: temporaryFolder("redis"), redis: redis)
            },
            run: { try instance!.process(urls, expecting: source) },
            tearDown: { finish() })
    }

    /// Redis emptied of the cases' entries, then filled by an instance that makes every result.
    private static func fill(_ urls: [ProcessingURL], redis: RedisConfiguration) throws {
        try clear(redis)
        let maker = try Instance(folder: temporaryFolder("maker"), redis: redis)
        defer {
            maker.close()
            try? FileManager.default.removeItem(at: maker.folder)
        }
        try maker.process(urls, expecting: .made)
    }

    /// Deletes the cases' entries (and only theirs) from Redis.
    private static func clear(_ redis: RedisConfiguration) throws {
        let client = RedisClient(configuration: redis)
        try Blocking.await {
            for namespace in [Instance.sourceNamespace, Instance.resultNamespace] {
                await RedisImageCache(client: client, configuration: .init(namespace: namespace)).clear(.disk)
            }
            await client.close()
        }
    }

    private static func temporaryFolder(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("webimage-scale-\(name)-\(UUID().uuidString)")
    }

    /// One `webimage serve` as `ServeCommand` assembles it, without HTTP: sources through an
    /// `ImageManager` whose cache is local memory and disk over Redis, results in memory, a
    /// local disk and Redis; everything local in `folder`.
    private final class Instance {
        static let sourceNamespace = "webimage-bench:source:"
        static let resultNamespace = "webimage-bench:result:"
        let processor: ImageProcessor
        let folder: URL
        private let client: RedisClient?
        private let downloader: HTTPImageDownloader

        init(folder: URL, redis: RedisConfiguration?) throws {
            self.folder = folder
            let coders = ImageCoders(WebImageCodecs.defaultCoders)
            client = redis.map { RedisClient(configuration: $0) }
            let shared = client.map { client in
                (sources: RedisImageCache(client: client, configuration: .init(namespace: Self.sourceNamespace), coders: coders),
                 results: RedisImageCache(client: client, configuration: .init(namespace: Self.resultNamespace), coders: coders))
            }
            let local = ImageCache(memory: MemoryCache(costLimit: 64 << 20),
                                   disk: try DiskCache(directory: folder.appendingPathComponent("sources")), coders: coders)
            let sources: any ImageCaching = shared.map { ImageCachesManager(caches: [$0.sources, local], storePolicy: .all) } ?? local
            downloader = HTTPImageDownloader(configuration: HTTPImageDownloaderConfiguration(maxConcurrentDownloads: concurrency))
            processor = ImageProcessor(
                manager: ImageManager(imageCache: sources, imageLoader: downloader, coders: coders), coders: coders,
                sourcePolicy: SourceAddressPolicy(allowsLoopback: true),
                disk: try DiskCache(directory: folder.appendingPathComponent("results")), sharedCache: shared?.results)
        }

        /// Processes `urls`, `concurrency` at a time; throws ``Broken`` unless every result
        /// came from `source`.
        func process(_ urls: [ProcessingURL], expecting source: ResultSource) throws {
            let processor = processor
            try Blocking.await {
                try await withThrowingTaskGroup(of: ResultSource.self) { group in
                    var next = urls.makeIterator()
                    for _ in 0..<concurrency {
                        guard let url = next.next() else { break }
                        group.addTask { try await processor.process(url).source }
                    }
                    while let found = try await group.next() {
                        guard found == source else { throw Broken(description: "a result from \(found), not \(source)") }
                        if let url = next.next() { group.addTask { try await processor.process(url).source } }
                    }
                }
            }
        }

        /// Closes the Redis connection and the downloader.
        func close() {
            let client = client, downloader = downloader
            _ = try? Blocking.await {
                await client?.close()
                try await downloader.shutdown()
            }
        }
    }
}
