import Foundation
import WebImage
import WebImageCodecs
import WebImageTestSupport
import XCTest

final class ImageCacheTests: XCTestCase {
    private let coders = ImageCoders(WebImageCodecs.defaultCoders)
    private let key = "https://example.com/images/photo.png?token=1"

    private func makeCache(_ folder: URL) throws -> ImageCache {
        ImageCache(memory: MemoryCache(), disk: try DiskCache(directory: folder, configuration: .init(autoTrimInterval: 0)),
                   coders: coders)
    }

    private func fixture() throws -> (Image, Data) {
        let data = try Fixtures.imageData("png/pngsuite_basn6a08.png")
        return (try coders.decode(data), data)
    }

    func testAStoredImageIsInMemoryAtOnceAndItsBytesOnDisk() async throws {
        let folder = try TemporaryFolder(self)
        let cache = try makeCache(folder.url)
        let (image, data) = try fixture()
        try await cache.store(image, data: data, forKey: key)
        XCTAssertEqual(cache.imageFromMemory(forKey: key), image)
        XCTAssertEqual(try Data(contentsOf: cache.disk.cachePath(forKey: key)), data, "the original bytes, as they came")
        let hit = try await cache.query(forKey: key, options: ImageCacheQueryOptions())
        XCTAssertEqual(hit.cacheType, .memory)
        XCTAssertNil(hit.data, "a memory hit reads no disk unless queryMemoryData asks")
        let withData = try await cache.query(forKey: key, options: ImageCacheQueryOptions(queryMemoryData: true))
        XCTAssertEqual(withData.data, data)
    }

    func testANewCacheOnTheSameFolderAnswersFromDiskAndBackFillsMemory() async throws {
        let folder = try TemporaryFolder(self)
        let (image, data) = try fixture()
        try await makeCache(folder.url).store(image, data: data, forKey: key)

        let fresh = try makeCache(folder.url)
        XCTAssertNil(fresh.imageFromMemory(forKey: key))
        let first = try await fresh.query(forKey: key, options: ImageCacheQueryOptions())
        XCTAssertEqual(first.cacheType, .disk)
        XCTAssertEqual(first.image, image)
        XCTAssertEqual(first.data, data)
        XCTAssertEqual(fresh.imageFromMemory(forKey: key), image, "back-filled")
        let second = try await fresh.query(forKey: key, options: ImageCacheQueryOptions())
        XCTAssertEqual(second.cacheType, .memory)
    }

    func testDiskQueriesDecodeWithTheGivenOptions() async throws {
        let folder = try TemporaryFolder(self)
        let cache = try makeCache(folder.url)
        let data = try Fixtures.benchData("testjfif_1024.jpg")
        try await cache.store(nil, data: data, forKey: key, to: .disk)
        let options = ImageCacheQueryOptions(decodeOptions: ImageDecodeOptions(thumbnailPixelSize: PixelSize(64)))
        let result = try await cache.query(forKey: key, options: options)
        XCTAssertEqual(result.cacheType, .disk)
        XCTAssertEqual(result.image.map { max($0.pixelWidth, $0.pixelHeight) }, 64)
    }

    func testCacheTypesLimitWhereImagesGoAndWhereQueriesLook() async throws {
        let folder = try TemporaryFolder(self)
        let cache = try makeCache(folder.url)
        let (image, data) = try fixture()

        try await cache.store(image, data: data, forKey: "memory-only", to: .memory)
        XCTAssertNotNil(cache.imageFromMemory(forKey: "memory-only"))
        XCTAssertFalse(cache.disk.containsData(forKey: "memory-only"))

        try await cache.store(image, data: data, forKey: "disk-only", to: .disk)
        XCTAssertNil(cache.imageFromMemory(forKey: "disk-only"))
        XCTAssertTrue(cache.disk.containsData(forKey: "disk-only"))

        let none = try await cache.query(forKey: "memory-only", options: ImageCacheQueryOptions(cacheType: .none))
        XCTAssertEqual(none.cacheType, .none)
        let memoryOnly = try await cache.query(forKey: "disk-only", options: ImageCacheQueryOptions(cacheType: .memory))
        XCTAssertNil(memoryOnly.image)
        let diskOnly = try await cache.query(forKey: "disk-only", options: ImageCacheQueryOptions(cacheType: .disk))
        XCTAssertEqual(diskOnly.cacheType, .disk)
        XCTAssertNil(cache.imageFromMemory(forKey: "disk-only"), "a disk-only query does not fill memory")

        let inDisk = await cache.containsImage(forKey: "disk-only", in: .all)
        XCTAssertEqual(inDisk, .disk)
        await cache.remove(forKey: "disk-only", from: .all)
        let gone = await cache.containsImage(forKey: "disk-only", in: .all)
        XCTAssertEqual(gone, .none)
        await cache.clear(.all)
        XCTAssertEqual(cache.memory.count, 0)
        XCTAssertEqual(cache.disk.count, 0)
    }

    func testImagesWithoutBytesAreEncodedOrSerialized() async throws {
        let folder = try TemporaryFolder(self)
        let cache = try makeCache(folder.url)
        let opaque = Image(pixels: PixelBuffer(width: 8, height: 8, fill: RGBA(r: 10, g: 200, b: 30)))
        let clear = Image(pixels: PixelBuffer(width: 8, height: 8, fill: RGBA(r: 10, g: 200, b: 30, a: 100)))
        try await cache.store(opaque, data: nil, forKey: "opaque", to: .disk)
        try await cache.store(clear, data: nil, forKey: "clear", to: .disk)
        XCTAssertEqual(cache.disk.data(forKey: "opaque").map { ImageFormat(detecting: $0) }, .jpeg)
        XCTAssertEqual(cache.disk.data(forKey: "clear").map { ImageFormat(detecting: $0) }, .png)

        let marker = Data("serialized".utf8)
        try await cache.store(opaque, data: Data([1, 2, 3]), forKey: "custom", to: .disk) { _, original, key in
            XCTAssertEqual(original, Data([1, 2, 3]))
            XCTAssertEqual(key, "custom")
            return marker
        }
        XCTAssertEqual(cache.disk.data(forKey: "custom"), marker)
    }

    func testDamagedDiskBytesAreAMissAndAreRemoved() async throws {
        let folder = try TemporaryFolder(self)
        let cache = try makeCache(folder.url)
        try await cache.store(nil, data: Data("<html>not an image</html>".utf8), forKey: key, to: .disk)
        let result = try await cache.query(forKey: key, options: ImageCacheQueryOptions())
        XCTAssertEqual(result.cacheType, .none)
        XCTAssertFalse(cache.disk.containsData(forKey: key))
    }

    func testACancelledQueryDoesNotReadTheDisk() async throws {
        let folder = try TemporaryFolder(self)
        let cache = try makeCache(folder.url)
        let (image, data) = try fixture()
        try await cache.store(image, data: data, forKey: key, to: .disk)
        let key = self.key
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await cache.query(forKey: key, options: ImageCacheQueryOptions())
        }
        do {
            _ = try await task.value
            XCTFail("a cancelled query must throw")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertNil(cache.imageFromMemory(forKey: key), "nothing was read, so nothing back-filled")
    }

    /// The chain ranks its caches as SDWebImage's `SDImageCachesManager` and as the coder and
    /// loader registries do: the cache added last has the highest priority.
    func testTheChainAsksTheLastAddedCacheFirstAndStoresPerPolicy() async throws {
        let folder = try TemporaryFolder(self)
        let high = try makeCache(folder.appending("high"))
        let low = try makeCache(folder.appending("low"))
        let (image, data) = try fixture()
        try await low.store(image, data: data, forKey: key)

        let onlyHigh = ImageCachesManager(caches: [low, high], queryPolicy: .highestOnly)
        let missed = try await onlyHigh.query(forKey: key, options: ImageCacheQueryOptions())
        XCTAssertNil(missed.image, "highestOnly asks only the cache given last")
        let onlyLow = ImageCachesManager(caches: [low, high], queryPolicy: .lowestOnly)
        let lowest = try await onlyLow.query(forKey: key, options: ImageCacheQueryOptions())
        XCTAssertEqual(lowest.image, image, "lowestOnly asks only the cache given first")
        XCTAssertNil(high.imageFromMemory(forKey: key), "a single-cache policy writes nothing back")
        let serial = ImageCachesManager(caches: [low, high])
        XCTAssertTrue(serial.caches.first as? ImageCache === high, "the last cache given is asked first")
        let found = try await serial.query(forKey: key, options: ImageCacheQueryOptions())
        XCTAssertEqual(found.image, image)
        XCTAssertEqual(found.cacheType, .memory, "answered by the lower cache's memory")
        let concurrent = ImageCachesManager(caches: [low, high], queryPolicy: .concurrent)
        let raced = try await concurrent.query(forKey: key, options: ImageCacheQueryOptions())
        XCTAssertEqual(raced.image, image)

        try await serial.store(image, data: data, forKey: "new", to: .all, serializer: nil)
        XCTAssertNotNil(high.imageFromMemory(forKey: "new"))
        XCTAssertNil(low.imageFromMemory(forKey: "new"), "highestOnly stores to the cache given last")
        let everywhere = ImageCachesManager(caches: [low, high], storePolicy: .all)
        try await everywhere.store(image, data: data, forKey: "both", to: .memory, serializer: nil)
        XCTAssertNotNil(low.imageFromMemory(forKey: "both"))
        XCTAssertNotNil(high.imageFromMemory(forKey: "both"))
    }

    /// A cache added to a chain goes in front of the ones it holds (SDWebImage's `addCache:`).
    func testAnAddedCacheIsAskedFirst() async throws {
        let folder = try TemporaryFolder(self)
        let first = try makeCache(folder.appending("first"))
        let added = try makeCache(folder.appending("added"))
        let (image, data) = try fixture()
        let chain = ImageCachesManager(caches: [first], queryPolicy: .highestOnly)
        chain.add(added)
        XCTAssertEqual(chain.caches.count, 2)
        XCTAssertTrue(chain.caches.first as? ImageCache === added)
        XCTAssertTrue(chain.caches.last as? ImageCache === first)
        try await chain.store(image, data: data, forKey: key, to: .memory, serializer: nil)
        XCTAssertNotNil(added.imageFromMemory(forKey: key))
        XCTAssertNil(first.imageFromMemory(forKey: key))
        chain.remove(ImageCache.self)
        XCTAssertTrue(chain.caches.isEmpty)
    }

    /// A hit in a lower cache is written back to the higher ones that missed: image and bytes,
    /// or, for a thumbnail decode, the bytes only (the thumbnail must not land under the key).
    func testALowerCachesHitIsWrittenBackToTheHigherOnes() async throws {
        for policy in [ImageCachesManager.QueryPolicy.serial, .concurrent] {
            let folder = try TemporaryFolder(self)
            let lower = try makeCache(folder.appending("lower"))
            let upper = try makeCache(folder.appending("upper"))
            let (image, data) = try fixture()
            try await lower.store(image, data: data, forKey: key, to: .disk, serializer: nil)
            let chain = ImageCachesManager(caches: [lower, upper], queryPolicy: policy)

            let thumbnail = ImageCacheQueryOptions(decodeOptions: ImageDecodeOptions(thumbnailPixelSize: PixelSize(8)))
            let small = try await chain.query(forKey: key, options: thumbnail)
            XCTAssertEqual(small.cacheType, .disk)
            XCTAssertNil(upper.imageFromMemory(forKey: key), "no thumbnail under the full-size key")
            XCTAssertEqual(upper.diskData(forKey: key), data, "the bytes went up")

            let upperOnly = try makeCache(folder.appending("upper2"))
            let chain2 = ImageCachesManager(caches: [lower, upperOnly], queryPolicy: policy)
            let full = try await chain2.query(forKey: key, options: ImageCacheQueryOptions())
            XCTAssertEqual(full.image?.pixelWidth, image.pixelWidth)
            XCTAssertEqual(upperOnly.imageFromMemory(forKey: key)?.pixelWidth, image.pixelWidth, "the image went up")
            XCTAssertEqual(upperOnly.diskData(forKey: key), data)
            let next = try await chain2.query(forKey: key, options: ImageCacheQueryOptions())
            XCTAssertEqual(next.cacheType, .memory, "the next query stops at the top")
        }
    }

    /// The bytes of the first cache that holds them, not decoded, copied into the disk tiers
    /// of the higher ones that missed: what an image server answers with.
    func testDiskImageDataComesFromTheFirstCacheHoldingItAndGoesUp() async throws {
        let folder = try TemporaryFolder(self)
        let lower = try makeCache(folder.appending("lower"))
        let upper = try makeCache(folder.appending("upper"))
        let chain = ImageCachesManager(caches: [lower, upper])
        let missing = await chain.diskImageData(forKey: key)
        XCTAssertNil(missing)

        let notAnImage = Data("encoded elsewhere".utf8)
        try await lower.store(nil, data: notAnImage, forKey: key, to: .disk, serializer: nil)
        let found = await chain.diskImageData(forKey: key)
        XCTAssertEqual(found, notAnImage, "handed on as stored: nothing decodes it")
        XCTAssertEqual(upper.diskData(forKey: key), notAnImage, "written back to the higher disk")
        XCTAssertNil(upper.imageFromMemory(forKey: key))
        let fromUpper = await upper.diskImageData(forKey: key)
        XCTAssertEqual(fromUpper, notAnImage)
    }

    func testBytesAndValidatorsComeFromTheFirstCacheHoldingThemAndGoUpTogether() async throws {
        let folder = try TemporaryFolder(self)
        let lower = try makeCache(folder.appending("lower"))
        let upper = try makeCache(folder.appending("upper"))
        let chain = ImageCachesManager(caches: [lower, upper], storePolicy: .all)
        let stamp = try XCTUnwrap(HTTPValidators(etag: nil, lastModified: "Sat, 28 Nov 2026 03:00:00 GMT"))
        let bytes = Data("a result made elsewhere".utf8)
        await lower.storeData(bytes, validators: stamp, forKey: key)
        let missingAbove = await upper.diskImageDataAndValidators(forKey: key)
        XCTAssertNil(missingAbove)

        let found = await chain.diskImageDataAndValidators(forKey: key)
        XCTAssertEqual(found?.data, bytes)
        XCTAssertEqual(found?.validators, stamp)
        let above = await upper.diskImageDataAndValidators(forKey: key)
        XCTAssertEqual(above?.data, bytes, "written back to the higher cache")
        XCTAssertEqual(above?.validators, stamp, "with the validators of the bytes")

        let other = Data("stored through the chain".utf8)
        await chain.storeData(other, validators: stamp, forKey: "other")
        let inLower = await lower.diskImageDataAndValidators(forKey: "other")
        let inUpper = await upper.diskImageDataAndValidators(forKey: "other")
        XCTAssertEqual([inLower?.data, inUpper?.data], [other, other], "stored in every cache the policy names")
        XCTAssertEqual(inLower?.validators, stamp)
    }

    /// A write-back lands in the tiers the query asked: a disk-only query fills no memory.
    func testADiskOnlyQueryWritesBackToDiskOnly() async throws {
        let folder = try TemporaryFolder(self)
        let lower = try makeCache(folder.appending("lower"))
        let upper = try makeCache(folder.appending("upper"))
        let (image, data) = try fixture()
        try await lower.store(image, data: data, forKey: key, to: .disk, serializer: nil)
        let chain = ImageCachesManager(caches: [lower, upper])

        let hit = try await chain.query(forKey: key, options: ImageCacheQueryOptions(cacheType: .disk))
        XCTAssertEqual(hit.image?.pixelWidth, image.pixelWidth)
        XCTAssertEqual(upper.diskData(forKey: key), data)
        XCTAssertNil(upper.imageFromMemory(forKey: key), "no decoded image kept in memory")
    }
}
