import Foundation
import WebImage
import WebImageTestSupport
import XCTest

/// SDWebImage behaviours of the manager and the image cache that its users rely on, each
/// through the public API against the loopback server and a real disk cache.
final class ManagerSemanticsTests: LoadingTestCase {
    private var folder: TemporaryFolder!

    override func setUp() async throws {
        try await super.setUp()
        folder = try TemporaryFolder(self)
    }

    private func makeCache() throws -> ImageCache {
        ImageCache(memory: MemoryCache(), disk: try DiskCache(directory: folder.url, configuration: .init(autoTrimInterval: 0)),
                   coders: Self.coders)
    }

    private func thumbnail(_ size: Int) -> ImageContext {
        var context = ImageContext()
        context.decodeOptions = ImageDecodeOptions(thumbnailPixelSize: PixelSize(size))
        return context
    }

    /// SDWebImage's cache test 17: a thumbnail query for a key never answers a later plain query.
    func testAThumbnailQueryLeavesTheFullSizeKeyAlone() async throws {
        let cache = try makeCache()
        let key = "https://example.com/photo.jpg"
        try await cache.store(nil, data: try bench("testjfif_1024.jpg"), forKey: key, to: .disk, serializer: nil)
        let small = try await cache.query(forKey: key, options: ImageCacheQueryOptions(
            decodeOptions: ImageDecodeOptions(thumbnailPixelSize: PixelSize(64))))
        XCTAssertEqual(small.image?.pixelWidth, 64)
        let plain = try await cache.query(forKey: key, options: ImageCacheQueryOptions())
        XCTAssertEqual(plain.image?.pixelWidth, 1024)
        let smallAgain = try await cache.query(forKey: key, options: ImageCacheQueryOptions(
            decodeOptions: ImageDecodeOptions(thumbnailPixelSize: PixelSize(64))))
        XCTAssertEqual(smallAgain.cacheType, .memory, "the thumbnail is in memory under its own key")
        XCTAssertEqual(smallAgain.image?.pixelWidth, 64)
    }

    func testAMemoryHitHonoursFirstFrameOnly() async throws {
        server.route("/anim.gif", .bytes(try Fixtures.imageData("gif/sd_TestImage.gif"), contentType: "image/gif"))
        let manager = ImageManager(imageCache: try makeCache(), imageLoader: makeDownloader(), coders: Self.coders)
        let url = server.url("/anim.gif")
        let animated = try await manager.image(for: url)
        XCTAssertTrue(animated.image.isAnimated)
        let still = try await manager.image(for: url, options: .decodeFirstFrameOnly)
        XCTAssertEqual(still.source, .memory)
        XCTAssertEqual(still.image.frames.count, 1)
        XCTAssertEqual(still.image.pixels, animated.image.pixels)
        var first = ImageContext()
        first.decodeOptions = ImageDecodeOptions(firstFrameOnly: true)
        let viaCallback = await withCheckedContinuation { continuation in
            manager.loadImage(with: url, context: first) { result, _ in continuation.resume(returning: result) }
        }
        XCTAssertEqual(try viaCallback.get().image.frames.count, 1)
    }

    func testDecryptedBytesAreWhatTheDiskKeeps() async throws {
        let jpeg = try bench("testjfif_256.jpg")
        server.route("/secret.bin", .bytes(Data(jpeg.map { $0 ^ 0x5A }), contentType: "application/octet-stream"))
        let url = server.url("/secret.bin")
        var decrypting = ImageContext()
        decrypting.decryptor = { data, _ in Data(data.map { $0 ^ 0x5A }) }
        let first = ImageManager(imageCache: try makeCache(), imageLoader: makeDownloader(), coders: Self.coders)
        let loaded = try await first.image(for: url, options: .waitStoreCache, context: decrypting)
        XCTAssertEqual(loaded.data, jpeg)
        let fresh = ImageManager(imageCache: try makeCache(), imageLoader: makeDownloader(), coders: Self.coders)
        let fromDisk = try await fresh.image(for: url, options: .fromCacheOnly)
        XCTAssertEqual(fromDisk.source, .disk, "read back without the decryptor")
        XCTAssertEqual(fromDisk.image.pixelWidth, 256)
    }

    func testAThumbnailLoadDeliversNoOriginalBytesAndStoresTheThumbnail() async throws {
        let original = try bench("testjfif_1024.jpg")
        server.route("/big.jpg", .bytes(original, contentType: "image/jpeg"))
        let cache = try makeCache()
        let manager = ImageManager(imageCache: cache, imageLoader: makeDownloader(), coders: Self.coders)
        let url = server.url("/big.jpg")
        let result = try await manager.image(for: url, options: .waitStoreCache, context: thumbnail(100))
        XCTAssertEqual(result.image.pixelWidth, 100)
        XCTAssertNil(result.data, "the downloaded bytes are the original's, not the thumbnail's")
        let stored = try XCTUnwrap(cache.diskData(forKey: manager.cacheKey(for: url, context: thumbnail(100))))
        XCTAssertEqual(try Self.coders.decode(stored).pixelWidth, 100, "the encoded thumbnail")
        XCTAssertEqual(cache.diskData(forKey: url.absoluteString), original, "the original bytes under the original key")
        XCTAssertNil(cache.imageFromMemory(forKey: url.absoluteString), "no thumbnail under the original key")
    }

    /// SDWebImage's manager test 18: a transformed or thumbnail key that misses is made from
    /// the cached original, without a download.
    func testAMissingThumbnailIsMadeFromTheCachedOriginal() async throws {
        server.route("/big.jpg", .bytes(try bench("testjfif_1024.jpg"), contentType: "image/jpeg"))
        let manager = ImageManager(imageCache: try makeCache(), imageLoader: makeDownloader(), coders: Self.coders)
        let url = server.url("/big.jpg")
        _ = try await manager.image(for: url, options: .waitStoreCache)
        let small = try await manager.image(for: url, options: .waitStoreCache, context: thumbnail(128))
        XCTAssertEqual(small.source, .disk)
        XCTAssertEqual(small.image.pixelWidth, 128)
        var grey = ImageContext()
        grey.transformer = GrayscaleTransformer()
        let transformed = try await manager.image(for: url, context: grey)
        XCTAssertEqual(transformed.source, .disk)
        let pixel = transformed.image.pixels[500, 300]
        XCTAssertTrue(pixel.r == pixel.g && pixel.g == pixel.b)
        XCTAssertEqual(server.requestCount("/big.jpg"), 1, "made from the cached original")

        var downloading = thumbnail(64)
        downloading.originalQueryCacheType = ImageCacheType.none
        let downloaded = try await manager.image(for: url, context: downloading)
        XCTAssertEqual(downloaded.source, .network)
        XCTAssertEqual(server.requestCount("/big.jpg"), 2)
    }

    func testCancelAllEndsEveryLoadAndIsRunningSaysSo() async throws {
        server.route("/stall.jpg", .neverEnding())
        let manager = ImageManager(imageCache: try makeCache(), imageLoader: makeDownloader(), coders: Self.coders)
        XCTAssertFalse(manager.isRunning)
        var plain = ImageContext()
        plain.requestModifier = { $0 }  // not comparable with the others: a load of its own
        let url = server.url("/stall.jpg")
        let contexts = [plain] + Array(repeating: ImageContext(), count: 4)
        let loads = contexts.map { context in Task { try await manager.image(for: url, context: context) } }
        let arrived = await server.wait { $0.requestCount("/stall.jpg") >= 1 }
        XCTAssertTrue(arrived)
        XCTAssertTrue(manager.isRunning)
        manager.cancelAll()
        for load in loads {
            do {
                _ = try await load.value
                XCTFail("a load survived cancelAll")
            } catch {
                XCTAssertEqual(error as? WebImageError, .cancelled)
            }
        }
        let stopped = await waitUntil { !manager.isRunning }
        XCTAssertTrue(stopped)
    }

    /// SDWebImage registers a load before `loadImageWithURL` returns: `isRunning` is true at
    /// once, and a `cancelAll()` made then cancels it, completing it once with the cancellation.
    func testACallbackLoadIsKnownAndCancelledByCancelAllAsSoonAsItReturns() async throws {
        let jpeg = try bench("testjfif_256.jpg")
        let manager = ImageManager(imageCache: try makeCache(), imageLoader: makeDownloader(), coders: Self.coders)
        let completions = Recorder<Result<ImageResult, WebImageError>>()
        for attempt in 0..<20 {
            let done = expectation(description: "completed \(attempt)")
            server.route("/slow\(attempt).jpg", .bytes(jpeg, contentType: "image/jpeg", delay: .milliseconds(200)))
            manager.loadImage(with: server.url("/slow\(attempt).jpg")) { result, finished in
                guard finished else { return }
                completions.append(result)
                done.fulfill()
            }
            XCTAssertTrue(manager.isRunning, "attempt \(attempt): running as soon as loadImage returns")
            manager.cancelAll()
            await fulfillment(of: [done], timeout: 10)
        }
        XCTAssertEqual(completions.count, 20, "each load completed once")
        for result in completions.all {
            guard case .failure(.cancelled) = result else { return XCTFail("a load survived cancelAll: \(result)") }
        }
        let stopped = await waitUntil { !manager.isRunning }
        XCTAssertTrue(stopped)
    }

    /// SDWebImage copies the source's format onto a transformed image: a custom transformer that
    /// makes a new image (no format of its own) still gives a JPEG for a JPEG.
    func testACustomTransformersNewImageKeepsTheSourcesFormat() async throws {
        server.route("/photo.jpg", .bytes(try bench("testjfif_256.jpg"), contentType: "image/jpeg"))
        let manager = ImageManager(imageCache: try makeCache(), imageLoader: makeDownloader(), coders: Self.coders)
        var context = ImageContext()
        context.transformer = ClosureTransformer.custom(key: "fresh") { image in
            Image(pixels: PixelBuffer(width: image.pixelWidth, height: image.pixelHeight, fill: RGBA(r: 1, g: 2, b: 3, a: 255)))
        }
        let result = try await manager.image(for: server.url("/photo.jpg"), context: context)
        XCTAssertEqual(result.image.pixels[0, 0], RGBA(r: 1, g: 2, b: 3, a: 255), "the transformer ran")
        XCTAssertEqual(result.image.format, .jpeg)
    }

    /// SDWebImage writes a disk hit back to memory only when the load's store cache type
    /// includes memory: a disk-only load leaves the memory cache as it was.
    func testADiskHitOfADiskOnlyLoadIsNotPutInMemory() async throws {
        let cache = try makeCache()
        let url = server.url("/stored.jpg")
        try await cache.store(nil, data: try bench("testjfif_256.jpg"), forKey: url.absoluteString, to: .disk, serializer: nil)
        let manager = ImageManager(imageCache: cache, imageLoader: makeDownloader(), coders: Self.coders)
        var diskOnly = ImageContext()
        diskOnly.storeCacheType = .disk
        let result = try await manager.image(for: url, context: diskOnly)
        XCTAssertEqual(result.source, .disk)
        XCTAssertNil(cache.memory.value(forKey: url.absoluteString), "the disk-only load left memory alone")
        let plain = try await manager.image(for: url)
        XCTAssertEqual(plain.source, .disk)
        XCTAssertNotNil(cache.memory.value(forKey: url.absoluteString), "a load that stores in memory writes the hit back")
        XCTAssertEqual(server.requests.count, 0)
    }

    func testAFailedURLCanBeTakenOffTheList() async throws {
        server.route("/missing.jpg", .status(404))
        let manager = ImageManager(imageCache: try makeCache(), imageLoader: makeDownloader(), coders: Self.coders)
        let url = server.url("/missing.jpg")
        _ = try? await manager.image(for: url)
        XCTAssertTrue(manager.isFailed(url))
        server.route("/missing.jpg", .bytes(try bench("testjfif_256.jpg")))
        manager.removeFailedURL(url)
        let retried = try await manager.image(for: url)
        XCTAssertEqual(retried.image.pixelWidth, 256)
        server.route("/gone.jpg", .status(404))
        _ = try? await manager.image(for: server.url("/gone.jpg"))
        XCTAssertTrue(manager.isFailed(server.url("/gone.jpg")))
        manager.removeAllFailedURLs()
        XCTAssertFalse(manager.isFailed(server.url("/gone.jpg")))
    }

    /// An image over one load's pixel limit is not broken: the URL stays off the failed list,
    /// and a load that decodes it smaller succeeds.
    func testAnImageOverALoadsPixelLimitIsNotAFailedURL() async throws {
        server.route("/big.jpg", .bytes(try bench("testjfif_1024.jpg"), contentType: "image/jpeg"))
        let manager = ImageManager(imageCache: try makeCache(), imageLoader: makeDownloader(), coders: Self.coders)
        let url = server.url("/big.jpg")
        var strict = ImageContext()
        strict.decodeOptions = ImageDecodeOptions(maxPixels: 100_000)
        do {
            _ = try await manager.image(for: url, context: strict)
            XCTFail("a 1024 × 768 image passed a 100,000-pixel limit")
        } catch {
            guard case .badImageData(.tooManyPixels) = error else { return XCTFail("\(error)") }
        }
        XCTAssertFalse(manager.isFailed(url))
        var small = thumbnail(128)
        small.decodeOptions?.maxPixels = 100_000
        let loaded = try await manager.image(for: url, context: small)
        XCTAssertEqual(loaded.image.pixelWidth, 128)
    }

    func testTheOptionsProcessorRewritesEachLoad() async throws {
        server.route("/photo.jpg", .bytes(try bench("testjfif_256.jpg")))
        let manager = ImageManager(
            imageCache: try makeCache(), imageLoader: makeDownloader(), coders: Self.coders,
            optionsProcessor: { url, options, context in
                var context = context
                if url.path.hasSuffix(".jpg") { context.decodeOptions = ImageDecodeOptions(thumbnailPixelSize: PixelSize(32)) }
                return (options.union(.waitStoreCache), context)
            })
        let result = try await manager.image(for: server.url("/photo.jpg"))
        XCTAssertEqual(result.image.pixelWidth, 32)
        XCTAssertTrue(manager.cacheKey(for: server.url("/photo.jpg")).contains("Thumbnail"))
    }

    /// A memory hit through the options processor is the processed load's hit: the second load
    /// answers from memory under the thumbnail's key, in both the async and the callback form.
    func testAMemoryHitAnswersTheProcessedLoad() async throws {
        server.route("/photo.jpg", .bytes(try bench("testjfif_256.jpg")))
        let manager = ImageManager(
            imageCache: try makeCache(), imageLoader: makeDownloader(), coders: Self.coders,
            optionsProcessor: { _, options, context in
                var context = context
                context.decodeOptions = ImageDecodeOptions(thumbnailPixelSize: PixelSize(32))
                return (options, context)
            })
        let url = server.url("/photo.jpg")
        _ = try await manager.image(for: url, options: .waitStoreCache)
        let hit = try await manager.image(for: url)
        XCTAssertEqual(hit.source, .memory)
        XCTAssertEqual(hit.image.pixelWidth, 32)
        let results = Recorder<Result<ImageResult, WebImageError>>()
        manager.loadImage(with: url) { result, _ in results.append(result) }
        let result = try XCTUnwrap(results.all.first).get()
        XCTAssertEqual(result.source, .memory, "a memory hit completes before loadImage returns")
        XCTAssertEqual(result.image.pixelWidth, 32)
    }

    /// A memory hit's operation is already finished: cancelling it calls nothing again and
    /// leaves later loads alone.
    func testCancellingAMemoryHitsOperationChangesNothing() async throws {
        server.route("/photo.jpg", .bytes(try bench("testjfif_256.jpg")))
        let manager = ImageManager(imageCache: try makeCache(), imageLoader: makeDownloader(), coders: Self.coders)
        let url = server.url("/photo.jpg")
        _ = try await manager.image(for: url, options: .waitStoreCache)
        let calls = Recorder<Result<ImageResult, WebImageError>>()
        let operation = manager.loadImage(with: url) { result, _ in calls.append(result) }
        operation.cancel()
        XCTAssertFalse(operation.isCancelled)
        XCTAssertEqual(calls.count, 1)
        XCTAssertEqual(try calls.all[0].get().source, .memory)
        let next = Recorder<Result<ImageResult, WebImageError>>()
        manager.loadImage(with: url) { result, _ in next.append(result) }
        XCTAssertEqual(try next.all.first?.get().source, .memory, "a later hit is not cancelled by the earlier cancel")
    }

    /// Polls `condition` for up to thirty seconds (a loaded machine is slow, a passing test is not).
    private func waitUntil(_ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }
}
