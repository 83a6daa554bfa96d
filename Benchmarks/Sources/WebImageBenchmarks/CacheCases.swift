import Foundation
import Synchronization
import WebImage
import WebImageCodecs

/// Cache cases. Each case `X` has a reference `ref.X` in plain Swift that does the same job
/// without the cache, timed the same way in the same binary. A run is a batch of lookups, so
/// one timed run is milliseconds long.
enum CacheCases {
    static func all(fixtures: URL) -> [BenchmarkCase] {
        let bench = fixtures.appendingPathComponent("bench")
        return [
            memoryHit(bench), memoryHitReference(bench), managerHit(bench), managerHitFloor(bench), managerCallbackHit(bench),
            diskHit(bench), diskHitReference(bench),
            DiskTrimCase.trim, DiskTrimCase.reference,
        ]
    }

    /// Entries in the memory caches.
    private static let memoryEntries = 1_000
    /// Lookups per timed run of the memory cases: few enough that most runs end within one
    /// scheduler slice, so that on a busy machine the median run is not a preempted one.
    private static let memoryLookups = 1_000
    /// Reads per timed run of the disk cases.
    private static let diskReads = 1_000

    /// A lookup that found nothing: the case is broken.
    struct Miss: Error {}

    /// 1,000 URL keys, and 1,000 lookups among them in a fixed shuffled order.
    private static func memoryKeys() -> (keys: [String], lookups: [String]) {
        let keys = (0..<memoryEntries).map { "https://example.com/images/\($0).jpg" }
        var generator = SplitMix64(seed: 42)
        let lookups = (0..<memoryLookups).map { _ in keys[Int(generator.next() % UInt64(keys.count))] }
        return (keys, lookups)
    }

    /// The decoded image every memory entry holds (they share its pixels).
    private static func image(_ bench: URL) throws -> Image {
        try ImageCoders(WebImageCodecs.defaultCoders).decode(try Data(contentsOf: bench.appendingPathComponent("testjfif_256.png")))
    }

    /// `cache.memory.hit`: `ImageCache.imageFromMemory(forKey:)` hits, the manager's memory path.
    private static func memoryHit(_ bench: URL) -> BenchmarkCase {
        BenchmarkCase(name: "cache.memory.hit") {
            let (keys, lookups) = memoryKeys()
            let cache = try filledImageCache(keys, image: try image(bench))
            return {
                for key in lookups where cache.imageFromMemory(forKey: key) == nil { throw Miss() }
            }
        }
    }

    /// `manager.memory.hit`: `ImageManager.image(for:)` answered from memory, awaited one by one.
    private static func managerHit(_ bench: URL) -> BenchmarkCase {
        BenchmarkCase(name: "manager.memory.hit") {
            let (keys, lookups) = memoryKeys()
            let manager = ImageManager(imageCache: try filledImageCache(keys, image: try image(bench)))
            let urls = lookups.map { URL(string: $0)! }
            return {
                try Blocking.await {
                    for url in urls { _ = try await manager.image(for: url, options: .fromCacheOnly) }
                }
            }
        }
    }

    /// `ref.manager.memory.hit.floor`: the least an async load by URL can do with the same
    /// lookups: an async call taking the URL, its absolute string as the key, the bare
    /// `Mutex<[String: Image]>` lookup, and an `ImageResult` handed back.
    private static func managerHitFloor(_ bench: URL) -> BenchmarkCase {
        BenchmarkCase(name: "ref.manager.memory.hit.floor") {
            let (keys, lookups) = memoryKeys()
            let image = try image(bench)
            let floor = AsyncLookupFloor()
            for key in keys { floor.images.withLock { $0[key] = image } }
            let urls = lookups.map { URL(string: $0)! }
            return {
                try Blocking.await {
                    for url in urls { _ = try await floor.image(for: url) }
                }
            }
        }
    }

    /// See ``managerHitFloor(_:)``.
    private final class AsyncLookupFloor: Sendable {
        let images = Mutex<[String: Image]>([:])

        nonisolated(nonsending) func image(for url: URL) async throws(Miss) -> ImageResult {
            let key = url.absoluteString
            guard let image = images.withLock({ $0[key] }) else { throw Miss() }
            return ImageResult(image: image, data: nil, source: .memory, url: url)
        }
    }

    /// `manager.memory.hit.callback`: `ImageManager.loadImage` answered from memory, all in
    /// flight at once, waited for together.
    private static func managerCallbackHit(_ bench: URL) -> BenchmarkCase {
        BenchmarkCase(name: "manager.memory.hit.callback") {
            let (keys, lookups) = memoryKeys()
            let manager = ImageManager(imageCache: try filledImageCache(keys, image: try image(bench)))
            let urls = lookups.map { URL(string: $0)! }
            return {
                let group = DispatchGroup()
                let misses = Atomic<Int>(0)
                for url in urls {
                    group.enter()
                    manager.loadImage(with: url, options: .fromCacheOnly) { result, finished in
                        if case .failure = result { misses.add(1, ordering: .relaxed) }
                        if finished { group.leave() }
                    }
                }
                group.wait()
                if misses.load(ordering: .relaxed) > 0 { throw Miss() }
            }
        }
    }

    /// An image cache (disk in a temporary folder, never written) with `image` in memory under every key.
    private static func filledImageCache(_ keys: [String], image: Image) throws -> ImageCache {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-bench-\(UUID().uuidString)")
        let cache = ImageCache(disk: try DiskCache(directory: folder, configuration: .init(autoTrimInterval: 0)))
        for key in keys { cache.memory.setValue(image, forKey: key, cost: image.memoryCost) }
        return cache
    }

    /// `ref.cache.memory.hit`: the same lookups in a bare `Mutex<[String: Image]>`.
    private static func memoryHitReference(_ bench: URL) -> BenchmarkCase {
        BenchmarkCase(name: "ref.cache.memory.hit") {
            let (keys, lookups) = memoryKeys()
            let image = try image(bench)
            let dictionary = Mutex<[String: Image]>([:])
            for key in keys { dictionary.withLock { $0[key] = image } }
            return {
                for key in lookups where dictionary.withLock({ $0[key] }) == nil { throw Miss() }
            }
        }
    }

    /// A disk cache in a new temporary folder holding one ~100 KB entry (a WebP image), with
    /// its key and bytes.
    private static func diskEntry(_ bench: URL) throws -> (cache: DiskCache, key: String, data: Data) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-bench-\(UUID().uuidString)")
        let cache = try DiskCache(directory: folder, configuration: .init(autoTrimInterval: 0))
        let data = try Data(contentsOf: bench.appendingPathComponent("testjfif_1024.webp"))
        let key = "https://example.com/images/testjfif_1024.webp"
        try cache.store(data, forKey: key)
        return (cache, key, data)
    }

    /// `cache.disk.hit`: `DiskCache.data(forKey:)` of the ~100 KB entry.
    private static func diskHit(_ bench: URL) -> BenchmarkCase {
        BenchmarkCase(name: "cache.disk.hit", prepareOperation: {
            let (cache, key, data) = try diskEntry(bench)
            return TimedOperation(
                run: {
                    for _ in 0..<diskReads where cache.data(forKey: key)?.count != data.count { throw Miss() }
                },
                tearDown: { try? FileManager.default.removeItem(at: cache.directory) })
        })
    }

    /// `ref.cache.disk.hit`: `Data(contentsOf:)` of the same file.
    private static func diskHitReference(_ bench: URL) -> BenchmarkCase {
        BenchmarkCase(name: "ref.cache.disk.hit", prepareOperation: {
            let (cache, key, data) = try diskEntry(bench)
            let file = cache.cachePath(forKey: key)
            return TimedOperation(
                run: {
                    for _ in 0..<diskReads where try Data(contentsOf: file).count != data.count { throw Miss() }
                },
                tearDown: { try? FileManager.default.removeItem(at: cache.directory) })
        })
    }
}
