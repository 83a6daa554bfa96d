import Foundation
import WebImage
import WebImageTestSupport
import XCTest

/// The manager's flow against a loopback server and real cache folders.
final class ImageManagerTests: LoadingTestCase {
    private var folder: TemporaryFolder!

    override func setUp() async throws {
        try await super.setUp()
        folder = try TemporaryFolder(self)
    }

    /// A manager over a fresh memory tier and the test's disk folder.
    private func makeManager(_ downloader: HTTPImageDownloader, transformer: (any ImageTransformer)? = nil,
                             shouldDownload: (@Sendable (URL) -> Bool)? = nil) throws -> ImageManager {
        try makeManager(downloader, folder: folder.url, transformer: transformer, shouldDownload: shouldDownload)
    }

    private func serveJPEG(_ path: String = "/photo.jpg", etag: String? = nil) throws -> URL {
        server.route(path, .bytes(try bench("testjfif_256.jpg"), contentType: "image/jpeg", etag: etag))
        return server.url(path)
    }

    private func error(_ body: () async throws(WebImageError) -> ImageResult) async -> WebImageError? {
        do {
            let result = try await body()
            XCTFail("expected an error, got an image from \(result.source)")
            return nil
        } catch {
            return error
        }
    }

    func testColdThenMemoryThenDiskFromANewManager() async throws {
        let url = try serveJPEG()
        let downloader = makeDownloader()
        let manager = try makeManager(downloader)
        let cold = try await manager.image(for: url, options: .waitStoreCache)
        XCTAssertEqual(cold.source, .network)
        XCTAssertEqual(cold.image.pixelWidth, 256)
        let warm = try await manager.image(for: url)
        XCTAssertEqual(warm.source, .memory)
        let fresh = try await makeManager(downloader).image(for: url)
        XCTAssertEqual(fresh.source, .disk)
        XCTAssertEqual(fresh.image, cold.image)
        XCTAssertEqual(server.requestCount("/photo.jpg"), 1)
    }

    func testAMemoryHitCompletesBeforeLoadImageReturnsAndRefreshCachedStillAsksTheServer() async throws {
        let url = try serveJPEG(etag: "\"v1\"")
        let manager = try makeManager(makeDownloader())
        _ = try await manager.image(for: url, options: .waitStoreCache)
        let calls = Recorder<(ImageResult, Bool)>()
        manager.loadImage(with: url) { result, finished in
            if case .success(let image) = result { calls.append((image, finished)) }
        }
        XCTAssertEqual(calls.all.map(\.0.source), [.memory], "completed before loadImage returned")
        XCTAssertEqual(calls.all.map(\.1), [true])

        let revalidated = expectation(description: "revalidated")
        manager.loadImage(with: url, options: .refreshCached) { result, finished in
            if case .success(let image) = result { calls.append((image, finished)) }
            if finished { revalidated.fulfill() }
        }
        await fulfillment(of: [revalidated], timeout: 30)
        XCTAssertEqual(calls.all.map(\.0.source), [.memory, .memory, .revalidated], "the cached image, then the revalidated one")
        XCTAssertEqual(calls.all.map(\.1), [true, false, true])
        XCTAssertEqual(server.requestCount("/photo.jpg"), 2, "refreshCached asked the server")
    }

    func testFromCacheOnlyMissesWithoutARequestAndFromLoaderOnlyIgnoresTheCache() async throws {
        let url = try serveJPEG()
        let manager = try makeManager(makeDownloader())
        let miss = await error { () async throws(WebImageError) in try await manager.image(for: url, options: .fromCacheOnly) }
        XCTAssertEqual(miss, .notInCache)
        XCTAssertEqual(server.requestCount("/photo.jpg"), 0)
        _ = try await manager.image(for: url)
        let again = try await manager.image(for: url, options: .fromLoaderOnly)
        XCTAssertEqual(again.source, .network)
        XCTAssertEqual(server.requestCount("/photo.jpg"), 2)
    }

    func testCacheMemoryOnlyWritesNothingToDiskAndWaitStoreCacheWritesBeforeCompleting() async throws {
        let url = try serveJPEG()
        let manager = try makeManager(makeDownloader())
        _ = try await manager.image(for: url, options: [.cacheMemoryOnly, .waitStoreCache])
        XCTAssertEqual(TemporaryFolder.cacheFileNames(in: folder.url).filter { !$0.hasPrefix(".") }, [])
        XCTAssertNotNil(manager.imageFromMemory(for: url))

        let other = try serveJPEG("/other.jpg")
        _ = try await manager.image(for: other, options: .waitStoreCache)
        let path = try DiskCache(directory: folder.url).cachePath(forKey: manager.cacheKey(for: other))
        XCTAssertTrue(FileManager.default.fileExists(atPath: path.path), "the file exists when the load completes")
    }

    func testPermanentFailuresAreBlacklistedUntilRetryFailed() async throws {
        server.route("/missing.jpg", .status(404))
        server.route("/busy.jpg", .status(503))
        let manager = try makeManager(makeDownloader())
        let missing = server.url("/missing.jpg"), busy = server.url("/busy.jpg")
        let first = await error { () async throws(WebImageError) in try await manager.image(for: missing) }
        XCTAssertEqual(first, .badStatusCode(404))
        let second = await error { () async throws(WebImageError) in try await manager.image(for: missing) }
        XCTAssertEqual(second, .failedURL)
        XCTAssertEqual(server.requestCount("/missing.jpg"), 1, "a failed URL is not requested again")
        _ = await error { () async throws(WebImageError) in try await manager.image(for: busy) }
        XCTAssertFalse(manager.isFailed(busy), "a 503 says try later: not a failed URL")

        server.route("/missing.jpg", .bytes(try bench("testjfif_256.jpg")))
        let retried = try await manager.image(for: missing, options: .retryFailed)
        XCTAssertEqual(retried.source, .network)
        XCTAssertFalse(manager.isFailed(missing), "a success with retryFailed clears the URL")
    }

    func testShouldDownloadCanRefuse() async throws {
        let url = try serveJPEG()
        let manager = try makeManager(makeDownloader(), shouldDownload: { _ in false })
        let refused = await error { () async throws(WebImageError) in try await manager.image(for: url) }
        XCTAssertEqual(refused, .notInCache)
        XCTAssertEqual(server.requestCount("/photo.jpg"), 0)
    }

    func testRefreshCachedRevalidates() async throws {
        let url = try serveJPEG(etag: "\"v1\"")
        let manager = try makeManager(makeDownloader())
        _ = try await manager.image(for: url, options: .waitStoreCache)

        var events: [ImageLoadingEvent] = []
        for try await event in manager.events(for: url, options: .refreshCached) { events.append(event) }
        guard case .cachedImage(let cached)? = events.first, case .finished(let final)? = events.last else {
            return XCTFail("expected the cached image first and a result last: \(events)")
        }
        XCTAssertEqual(cached.source, .memory)
        XCTAssertEqual(final.source, .revalidated, "304: the cached image stands")
        XCTAssertEqual(server.requests.last?[header: "If-None-Match"], "\"v1\"")

        server.route("/photo.jpg", .bytes(try bench("testjfif_1024.jpg"), etag: "\"v2\""))
        let changed = try await manager.image(for: url, options: [.refreshCached, .waitStoreCache])
        XCTAssertEqual(changed.source, .network)
        XCTAssertEqual(changed.image.pixelWidth, 1024)
        XCTAssertEqual(manager.imageFromMemory(for: url)?.pixelWidth, 1024, "the new image replaced the entry")
    }

    func testTransformerAndThumbnailKeysFollowSDWebImage() async throws {
        struct Grayscale: ImageTransformer {
            let key = "gray"
            func transform(_ image: Image, forKey key: String) -> Image? {
                var out = image
                var pixels = image.pixels
                for y in 0..<pixels.height { for x in 0..<pixels.width {
                    let p = pixels[x, y]
                    let v = UInt8((Int(p.r) + Int(p.g) + Int(p.b)) / 3)
                    pixels[x, y] = RGBA(r: v, g: v, b: v, a: p.a)
                } }
                out.frames[0].pixels = pixels
                return out
            }
        }
        let url = try serveJPEG()
        let manager = try makeManager(makeDownloader(), transformer: Grayscale())
        XCTAssertEqual(manager.cacheKey(for: url), url.absoluteString.replacingOccurrences(of: "photo.jpg", with: "photo-gray.jpg"))
        var context = ImageContext()
        context.decodeOptions = ImageDecodeOptions(thumbnailPixelSize: PixelSize(64))
        XCTAssertTrue(manager.cacheKey(for: url, context: context).hasSuffix("photo-Thumbnail(%7B64.000000,64.000000%7D,1)-gray.jpg"),
                      "SDWebImage's key: %f sizes, the path percent-encoded by NSURLComponents")

        let result = try await manager.image(for: url, options: .waitStoreCache, context: context)
        XCTAssertEqual(result.image.pixelWidth, 64)
        let p = result.image.pixels[10, 10]
        XCTAssertTrue(p.r == p.g && p.g == p.b, "transformed")
        let disk = try DiskCache(directory: folder.url)
        XCTAssertTrue(disk.containsData(forKey: url.absoluteString), "the original bytes under the original key")
        XCTAssertTrue(disk.containsData(forKey: manager.cacheKey(for: url, context: context)))
    }

    /// SDWebImage's `imageEncodeOptions` and 5.21.3's encoder choice for cache stores: a
    /// thumbnail (no downloaded bytes of its own) is written in the format and with the options
    /// the context gives; the original keeps its bytes.
    func testAThumbnailIsStoredWithTheContextsEncodeOptionsAndFormat() async throws {
        let url = try serveJPEG()
        let manager = try makeManager(makeDownloader())
        func stored(_ context: ImageContext) async throws -> Data {
            _ = try await manager.image(for: url, options: [.waitStoreCache, .fromLoaderOnly], context: context)
            return try XCTUnwrap(DiskCache(directory: folder.url).data(forKey: manager.cacheKey(for: url, context: context)))
        }
        var plain = ImageContext()
        plain.decodeOptions = ImageDecodeOptions(thumbnailPixelSize: PixelSize(128))
        let byDefault = try await stored(plain)
        XCTAssertEqual(ImageFormat(detecting: byDefault), .jpeg, "the cache's own choice: the source's format")
        var small = plain
        small.imageEncodeOptions = ImageEncodeOptions(quality: 0.2, maxPixelSize: PixelSize(48))
        small.imageEncodeFormat = .webp
        let encoded = try await stored(small)
        XCTAssertEqual(ImageFormat(detecting: encoded), .webp)
        let decoded = try Self.coders.decode(encoded)
        XCTAssertEqual(max(decoded.pixelWidth, decoded.pixelHeight), 48, "maxPixelSize")
        XCTAssertEqual(try DiskCache(directory: folder.url).data(forKey: url.absoluteString), try bench("testjfif_256.jpg"),
                       "the original's bytes as downloaded")
    }

    func testCallbacksCompleteOnceAndCancelDeliversCancelled() async throws {
        server.route("/slow.jpg", .slow(try bench("testjfif_256.jpg"), chunkSize: 1000, delay: .milliseconds(50)))
        let manager = try makeManager(makeDownloader())
        let calls = Recorder<(Result<ImageResult, WebImageError>, Bool)>()
        let done = expectation(description: "completed")
        let operation = manager.loadImage(with: server.url("/slow.jpg")) { result, finished in
            calls.append((result, finished))
            if finished { done.fulfill() }
        }
        _ = await server.wait { $0.requestCount("/slow.jpg") == 1 }
        operation.cancel()
        await fulfillment(of: [done], timeout: 30)
        try await Task.sleep(for: .milliseconds(200))
        XCTAssertEqual(calls.all.count, 1, "exactly one completion")
        guard case .failure(.cancelled) = calls.all.first?.0 else { return XCTFail("\(calls.all)") }
        let aborted = await server.wait { $0.abortedCount("/slow.jpg") == 1 }
        XCTAssertTrue(aborted, "the download was aborted")

        let ok = expectation(description: "image")
        let queue = DispatchQueue(label: "callbacks")
        var context = ImageContext()
        context.callbackQueue = queue
        manager.loadImage(with: try serveJPEG(), context: context) { result, finished in
            dispatchPrecondition(condition: .onQueue(queue))
            if case .success(let image) = result, finished, image.source == .network { ok.fulfill() }
        }
        await fulfillment(of: [ok], timeout: 30)
    }

    func testBadImageDataIsBlacklistedButATimeoutIsNot() async throws {
        server.route("/page.jpg", .html())
        server.route("/stalled.jpg", .neverEnding())
        let manager = try makeManager(makeDownloader { $0.downloadTimeout = 0.3 })
        let page = server.url("/page.jpg"), stalled = server.url("/stalled.jpg")
        let bad = await error { () async throws(WebImageError) in try await manager.image(for: page) }
        guard case .badImageData? = bad else { return XCTFail("\(String(describing: bad))") }
        let refused = await error { () async throws(WebImageError) in try await manager.image(for: page) }
        XCTAssertEqual(refused, .failedURL)
        XCTAssertEqual(server.requestCount("/page.jpg"), 1, "refused without a request")
        let timeout = await error { () async throws(WebImageError) in try await manager.image(for: stalled) }
        XCTAssertEqual(timeout, .timedOut(seconds: 0.3))
        XCTAssertFalse(manager.isFailed(stalled))
    }

    func testTwoThumbnailSizesShareOneRequestAndGetTwoEntries() async throws {
        server.route("/big.jpg", .slow(try bench("testjfif_1024.jpg"), chunkSize: 20_000, delay: .milliseconds(10)))
        let url = server.url("/big.jpg")
        let manager = try makeManager(makeDownloader())
        func context(_ side: Int) -> ImageContext {
            var context = ImageContext()
            context.decodeOptions = ImageDecodeOptions(thumbnailPixelSize: PixelSize(side))
            return context
        }
        async let small = manager.image(for: url, options: .waitStoreCache, context: context(64))
        async let large = manager.image(for: url, options: .waitStoreCache, context: context(200))
        let (a, b) = try await (small, large)
        XCTAssertEqual(a.image.pixelWidth, 64)
        XCTAssertEqual(b.image.pixelWidth, 200)
        XCTAssertEqual(server.requestCount("/big.jpg"), 1)
        let disk = try DiskCache(directory: folder.url)
        XCTAssertTrue(disk.containsData(forKey: manager.cacheKey(for: url, context: context(64))))
        XCTAssertTrue(disk.containsData(forKey: manager.cacheKey(for: url, context: context(200))))
        XCTAssertEqual(manager.imageFromMemory(for: url, context: context(64))?.pixelWidth, 64)
    }
}
