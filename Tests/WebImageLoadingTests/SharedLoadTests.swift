import Foundation
import Locking
import LoopbackHTTPServer
import WebImage
import WebImageTestSupport
import XCTest

/// Identical concurrent loads through the manager share every stage: one cache query, one
/// download, one decode, one transform, one store; each caller can leave on its own.
final class SharedLoadTests: LoadingTestCase {
    /// A transformer that counts its runs (and turns images grey, so its output is visible).
    final class CountingTransformer: ImageTransformer {
        let runs = Mutex(0)
        let key = "counting"

        func transform(_ image: Image, forKey key: String) -> Image? {
            runs.withLock { $0 += 1 }
            return GrayscaleTransformer().transform(image, forKey: key)
        }

        var count: Int { runs.withLock { $0 } }
    }

    /// A real image cache that counts the stores made into it, and the memory lookups made and
    /// queries answered that come before a load joins the work (or the download) under way.
    final class CountingCache: ImageCaching {
        let cache: ImageCache
        private let stores = Mutex(0)
        private let lookups = Mutex(0)
        private let queries = Mutex(0)

        init(_ cache: ImageCache) { self.cache = cache }

        var storeCount: Int { stores.withLock { $0 } }
        var lookupCount: Int { lookups.withLock { $0 } }
        var queryCount: Int { queries.withLock { $0 } }

        func imageFromMemory(forKey key: String) -> Image? {
            lookups.withLock { $0 += 1 }
            return cache.imageFromMemory(forKey: key)
        }
        func query(forKey key: String, options: ImageCacheQueryOptions) async throws -> ImageCacheQueryResult {
            let found = try await cache.query(forKey: key, options: options)
            queries.withLock { $0 += 1 }
            return found
        }
        func store(_ image: Image?, data: Data?, forKey key: String, to cacheType: ImageCacheType,
                   serializer: ImageCacheSerializer?) async throws {
            stores.withLock { $0 += 1 }
            try await cache.store(image, data: data, forKey: key, to: cacheType, serializer: serializer)
        }
        func remove(forKey key: String, from cacheType: ImageCacheType) async { await cache.remove(forKey: key, from: cacheType) }
        func containsImage(forKey key: String, in cacheType: ImageCacheType) async -> ImageCacheType {
            await cache.containsImage(forKey: key, in: cacheType)
        }
        func clear(_ cacheType: ImageCacheType) async { await cache.clear(cacheType) }
        func validators(forKey key: String) async -> HTTPValidators? { await cache.validators(forKey: key) }
        func setValidators(_ validators: HTTPValidators?, forKey key: String) async {
            await cache.setValidators(validators, forKey: key)
        }
    }

    private func makeParts() throws -> (ImageManager, CountingCache, CountingTransformer) {
        let disk = try DiskCache(directory: try TemporaryFolder(self).url, configuration: .init(autoTrimInterval: 0))
        let cache = CountingCache(ImageCache(memory: MemoryCache(), disk: disk, coders: Self.coders))
        let transformer = CountingTransformer()
        let manager = ImageManager(imageCache: cache, imageLoader: makeDownloader(), coders: Self.coders, transformer: transformer)
        return (manager, cache, transformer)
    }

    /// Holds the image at `path` until the returned gate opens.
    private func routeHeld(_ path: String) throws -> LoopbackHTTPGate {
        let gate = LoopbackHTTPGate()
        var held = LoopbackHTTPResponse.bytes(try bench("testjfif_256.jpg"), contentType: "image/jpeg")
        held.gate = gate
        server.route(path, held)
        return gate
    }

    /// Waits until `cache` has seen `count` memory lookups, then opens `gate`: every load has
    /// missed the memory cache, so it joins the work the gate holds, however slowly the machine
    /// started its task.
    private func openGate(_ gate: LoopbackHTTPGate, afterLookups count: Int, in cache: CountingCache) async {
        let missed = await server.wait { _ in cache.lookupCount >= count }
        XCTAssertTrue(missed, "\(cache.lookupCount) of \(count) loads looked in memory")
        gate.open()
    }

    func testTwentyConcurrentLoadsTransformOnceAndStoreOnce() async throws {
        let gate = try routeHeld("/photo.jpg")
        server.route("/single.jpg", .bytes(try bench("testjfif_256.jpg"), contentType: "image/jpeg"))
        let (manager, cache, transformer) = try makeParts()
        _ = try await manager.image(for: server.url("/single.jpg"), options: .waitStoreCache)
        let storesOfOneLoad = cache.storeCount
        XCTAssertEqual(transformer.count, 1)
        XCTAssertEqual(storesOfOneLoad, 3, "the image in memory, the original and the image on disk")

        let url = server.url("/photo.jpg")
        let lookupsBefore = cache.lookupCount
        let results = try await withThrowingTaskGroup(of: ImageResult.self) { group in
            for _ in 0..<20 { group.addTask { try await manager.image(for: url, options: .waitStoreCache) } }
            await openGate(gate, afterLookups: lookupsBefore + 20, in: cache)
            return try await group.reduce(into: []) { $0.append($1) }
        }
        XCTAssertEqual(results.count, 20)
        XCTAssertTrue(results.allSatisfy { $0.source == .network && $0.image.pixelWidth == 256 })
        let pixel = results[0].image.pixels[100, 100]
        XCTAssertTrue(pixel.r == pixel.g && pixel.g == pixel.b, "transformed")
        XCTAssertEqual(server.requestCount("/photo.jpg"), 1)
        XCTAssertEqual(transformer.count, 2, "one run for the twenty loads")
        XCTAssertEqual(cache.storeCount, 2 * storesOfOneLoad, "one store for the twenty loads")
        let hit = try await manager.image(for: url)
        XCTAssertEqual(hit.source, .memory)
    }

    func testCancellingNineteenLoadsLeavesTheTwentiethToFinish() async throws {
        let gate = try routeHeld("/photo.jpg")
        let (manager, cache, transformer) = try makeParts()
        let url = server.url("/photo.jpg")
        let loads = (0..<20).map { _ in Task { try await manager.image(for: url) } }
        let arrived = await server.wait { $0.requestCount("/photo.jpg") == 1 && cache.lookupCount >= 20 }
        XCTAssertTrue(arrived)
        for load in loads.dropLast() { load.cancel() }
        for load in loads.dropLast() {
            do {
                _ = try await load.value
                XCTFail("a cancelled load delivered an image")
            } catch {
                XCTAssertEqual(error as? WebImageError, .cancelled)
            }
        }
        gate.open()
        let last = try await loads.last!.value
        XCTAssertEqual(last.source, .network)
        XCTAssertEqual(last.image.pixelWidth, 256)
        XCTAssertEqual(transformer.count, 1)
        XCTAssertEqual(server.requestCount("/photo.jpg"), 1)
        XCTAssertEqual(server.abortedCount("/photo.jpg"), 0)
    }

    func testCancellingEveryLoadStopsTheSharedWork() async throws {
        server.route("/stall.jpg", .neverEnding())
        let (manager, _, transformer) = try makeParts()
        let url = server.url("/stall.jpg")
        let loads = (0..<20).map { _ in Task { try await manager.image(for: url) } }
        let arrived = await server.wait { $0.requestCount("/stall.jpg") == 1 }
        XCTAssertTrue(arrived)
        for load in loads { load.cancel() }
        for load in loads {
            let outcome = await load.result
            XCTAssertEqual(outcome.failure as? WebImageError, .cancelled)
        }
        let aborted = await server.wait { $0.abortedCount("/stall.jpg") == 1 }
        XCTAssertTrue(aborted, "the download stops with its last caller")
        XCTAssertEqual(transformer.count, 0)
    }

    func testDifferentTransformersDoNotShareTheirWork() async throws {
        let gate = try routeHeld("/photo.jpg")
        let (manager, cache, transformer) = try makeParts()
        let url = server.url("/photo.jpg")
        var flipped = ImageContext()
        flipped.transformer = .flip(horizontal: true, vertical: false)
        async let counted = manager.image(for: url)
        async let other = manager.image(for: url, context: flipped)
        // Each load asks the cache for its image, then for the original to transform, before it
        // downloads: once the fourth query is answered both are on their way to the download.
        let queried = await server.wait { _ in cache.queryCount >= 4 }
        XCTAssertTrue(queried, "\(cache.queryCount) cache queries")
        gate.open()
        let (a, b) = try await (counted, other)
        XCTAssertEqual(transformer.count, 1, "only the load with the counting transformer ran it")
        XCTAssertNotEqual(a.image.pixels, b.image.pixels)
        XCTAssertEqual(server.requestCount("/photo.jpg"), 1, "the download is still shared")
    }
}
