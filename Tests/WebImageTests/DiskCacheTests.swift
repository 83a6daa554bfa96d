import Foundation
import WebImage
import WebImageTestSupport
import XCTest

final class DiskCacheTests: XCTestCase {
    /// A cache without timed maintenance over a fresh folder.
    private func makeCache(_ folder: URL, _ configuration: DiskCache.Configuration = .init(autoTrimInterval: 0)) throws -> DiskCache {
        try DiskCache(directory: folder, configuration: configuration)
    }

    private func randomData(_ count: Int) -> Data {
        Data((0..<count).map { _ in UInt8.random(in: 0...255) })
    }

    func testStoredFileIsNamedByKeyAndReadsBackByteForByte() throws {
        let folder = try TemporaryFolder(self).appending("cache")
        let cache = try makeCache(folder)
        let key = "https://example.com/a.png"
        let data = randomData(70_000)
        try cache.store(data, forKey: key)
        XCTAssertEqual(TemporaryFolder.cacheFileNames(in: folder), ["8c11d92f07c76baf29e49afd2301deb2.png"])
        XCTAssertEqual(cache.cachePath(forKey: key).lastPathComponent, "8c11d92f07c76baf29e49afd2301deb2.png")
        XCTAssertEqual(try Data(contentsOf: folder.appendingPathComponent("8c11d92f07c76baf29e49afd2301deb2.png")), data)
        XCTAssertEqual(cache.data(forKey: key), data)
        XCTAssertTrue(cache.containsData(forKey: key))
        XCTAssertEqual(cache.count, 1)
        XCTAssertEqual(cache.totalAllocatedSize, FileStat(cache.cachePath(forKey: key))?.allocatedSize)
        XCTAssertGreaterThanOrEqual(cache.totalAllocatedSize, 70_000)

        let replacement = randomData(10)
        try cache.store(replacement, forKey: key)
        XCTAssertEqual(cache.data(forKey: key), replacement)
        XCTAssertEqual(cache.count, 1)
        XCTAssertEqual(cache.totalAllocatedSize, FileStat(cache.cachePath(forKey: key))?.allocatedSize)
        XCTAssertEqual(TemporaryFolder.cacheFileNames(in: folder).count, 1, "no temporary file is left behind")
    }

    /// SDWebImage's `totalSize` sums the files' lengths: a 20-byte entry is 20 bytes, though it
    /// occupies a block on disk, which ``DiskCache/totalAllocatedSize`` counts for trimming.
    func testTotalSizeSumsTheEntriesBytesAndTheAllocatedSizeTheirBlocks() throws {
        let cache = try makeCache(try TemporaryFolder(self).appending("cache"))
        try cache.store(randomData(20), forKey: "https://example.com/small.png")
        try cache.store(randomData(5_000), forKey: "https://example.com/larger.png")
        XCTAssertEqual(cache.totalSize, 5_020)
        let allocated = [FileStat(cache.cachePath(forKey: "https://example.com/small.png"))?.allocatedSize,
                         FileStat(cache.cachePath(forKey: "https://example.com/larger.png"))?.allocatedSize].compactMap { $0 }
        XCTAssertEqual(cache.totalAllocatedSize, allocated.reduce(0, +))
        cache.removeData(forKey: "https://example.com/larger.png")
        XCTAssertEqual(cache.totalSize, 20)
    }

    func testReadsAFolderPreparedByHandAndFallsBackToTheNameWithoutExtension() throws {
        let folder = try TemporaryFolder(self).appending("cache")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let named = "https://example.com/photo.jpg?size=large"
        let bare = "https://example.com/legacy.gif"
        try Data("with extension".utf8).write(to: folder.appendingPathComponent(MD5.hex(named) + ".jpg"))
        try Data("without extension".utf8).write(to: folder.appendingPathComponent(MD5.hex(bare)))
        let cache = try makeCache(folder)
        XCTAssertEqual(cache.data(forKey: named), Data("with extension".utf8))
        XCTAssertEqual(cache.data(forKey: bare), Data("without extension".utf8))
        XCTAssertTrue(cache.containsData(forKey: bare))
        XCTAssertNil(cache.data(forKey: "https://example.com/other.gif"))
        XCTAssertEqual(cache.count, 2)
        // The full name wins over the bare one; removal deletes both.
        try cache.store(Data("new".utf8), forKey: bare)
        XCTAssertEqual(cache.data(forKey: bare), Data("new".utf8))
        cache.removeData(forKey: bare)
        XCTAssertFalse(cache.containsData(forKey: bare))
        XCTAssertNil(cache.data(forKey: bare))
        XCTAssertEqual(TemporaryFolder.cacheFileNames(in: folder), [MD5.hex(named) + ".jpg"])
        XCTAssertEqual(cache.count, 1)
    }

    func testReadOnlyFoldersAreSearchedAfterTheMainOne() throws {
        let temp = try TemporaryFolder(self)
        let main = temp.appending("main"), extra = temp.appending("extra")
        try FileManager.default.createDirectory(at: extra, withIntermediateDirectories: true)
        let key = "https://example.com/shared.png"
        let extraFile = extra.appendingPathComponent(DiskCache.fileName(forKey: key))
        try Data("bundled".utf8).write(to: extraFile)
        let cache = try makeCache(main, .init(autoTrimInterval: 0, additionalReadOnlyPaths: [extra]))
        XCTAssertEqual(cache.data(forKey: key), Data("bundled".utf8))
        XCTAssertTrue(cache.containsData(forKey: key))
        XCTAssertEqual(cache.count, 0, "read-only folders are not counted")
        try cache.store(Data("fresh".utf8), forKey: key)
        XCTAssertEqual(cache.data(forKey: key), Data("fresh".utf8))
        cache.removeData(forKey: key)
        cache.removeAll()
        XCTAssertEqual(cache.data(forKey: key), Data("bundled".utf8))
        XCTAssertEqual(try Data(contentsOf: extraFile), Data("bundled".utf8))
    }

    func testHostileKeysStayInsideTheFolder() throws {
        let temp = try TemporaryFolder(self)
        let folder = temp.appending("inside").appendingPathComponent("cache", isDirectory: true)
        let cache = try makeCache(folder)
        let keys = [
            "../../etc/passwd", "../outside.png", "/absolute/../../x.jpg", "a\0b/../../c.png", "\0",
            "https://example.com/" + String(repeating: "a", count: 10_240) + ".png",
            "a." + String(repeating: "../", count: 3_500), String(repeating: "é", count: 5_000), "..", ".", "",
        ]
        for (i, key) in keys.enumerated() { try cache.store(Data([UInt8(i)]), forKey: key) }
        for (i, key) in keys.enumerated() {
            XCTAssertEqual(cache.data(forKey: key), Data([UInt8(i)]), "key #\(i)")
        }
        XCTAssertEqual(TemporaryFolder.names(in: temp.url), ["inside"])
        XCTAssertEqual(TemporaryFolder.names(in: temp.appending("inside")), ["cache"])
        let names = TemporaryFolder.cacheFileNames(in: folder)
        XCTAssertEqual(names.count, keys.count)
        let pattern = try NSRegularExpression(pattern: "^[0-9a-f]{32}(\\.[^/\\x00:]{1,200})?$")
        for name in names {
            XCTAssertNotNil(pattern.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)), name)
        }
        XCTAssertTrue(names.contains(MD5.hex(keys[5]) + ".png"), "a 10 kB URL keeps its extension")
        XCTAssertEqual(cache.count, keys.count)
    }

    func testExtendedDataInExtendedAttribute() throws {
        let folder = try TemporaryFolder(self).appending("cache")
        let cache = try makeCache(folder)
        let key = "https://example.com/etag.png"
        XCTAssertThrowsError(try cache.setExtendedData(Data("x".utf8), forKey: key)) {
            XCTAssertEqual($0 as? DiskCacheError, .noEntry(key: key))
        }
        try cache.store(Data("image".utf8), forKey: key)
        let meta = Data(#"{"etag":"abc"}"#.utf8)
        try cache.setExtendedData(meta, forKey: key)
        XCTAssertEqual(cache.extendedData(forKey: key), meta)
        let attributes = try FileManager.default.attributesOfItem(atPath: cache.cachePath(forKey: key).path)
        let xattrs = attributes[FileAttributeKey("NSFileExtendedAttributes")] as? [String: Data]
        guard xattrs?[DiskCache.extendedAttributeName] == meta else {
            throw MachineGuard.notPermitted("this file system refuses user.* extended attributes; the sidecar test covers it")
        }
        XCTAssertEqual(TemporaryFolder.cacheFileNames(in: folder).count, 1, "no sidecar when the attribute is taken")
        try cache.setExtendedData(nil, forKey: key)
        XCTAssertNil(cache.extendedData(forKey: key))
        let cleared = try FileManager.default.attributesOfItem(atPath: cache.cachePath(forKey: key).path)
        let left = cleared[FileAttributeKey("NSFileExtendedAttributes")] as? [String: Data]
        XCTAssertNil(left?[DiskCache.extendedAttributeName], "clearing removes the attribute, as SDWebImage does, not an empty one left")
        try cache.setExtendedData(meta, forKey: key)
        try cache.store(Data("image 2".utf8), forKey: key)
        XCTAssertNil(cache.extendedData(forKey: key), "a new store starts without extended data")
    }

    func testExtendedDataInSidecarIsHiddenAndRemovedWithItsEntry() throws {
        let folder = try TemporaryFolder(self).appending("cache")
        let cache = try makeCache(folder, .init(autoTrimInterval: 0, usesExtendedAttributes: false))
        let key = "https://example.com/sidecar.png"
        try cache.store(Data("image".utf8), forKey: key)
        let entrySize = cache.totalAllocatedSize
        let meta = Data("Last-Modified: Tue, 01 Jul 2025 00:00:00 GMT".utf8)
        try cache.setExtendedData(meta, forKey: key)
        XCTAssertEqual(cache.extendedData(forKey: key), meta)
        let name = DiskCache.fileName(forKey: key)
        XCTAssertEqual(TemporaryFolder.cacheFileNames(in: folder), ["." + name + ".meta", name])
        XCTAssertEqual(try Data(contentsOf: folder.appendingPathComponent("." + name + ".meta")), meta)
        XCTAssertEqual(cache.count, 1, "a sidecar is not an entry")
        XCTAssertEqual(cache.totalAllocatedSize, entrySize, "nor does it count toward the size")
        let fresh = try makeCache(folder, .init(autoTrimInterval: 0, usesExtendedAttributes: false))
        XCTAssertEqual(fresh.count, 1, "a scan does not count it either")
        XCTAssertEqual(fresh.totalAllocatedSize, entrySize)

        try cache.store(Data("image 2".utf8), forKey: key)
        XCTAssertNil(cache.extendedData(forKey: key), "a new store starts without extended data")
        try cache.setExtendedData(meta, forKey: key)
        cache.removeData(forKey: key)
        XCTAssertEqual(TemporaryFolder.cacheFileNames(in: folder), [])
        try cache.store(Data("image 3".utf8), forKey: key)
        try cache.setExtendedData(meta, forKey: key)
        try cache.setExtendedData(nil, forKey: key)
        XCTAssertNil(cache.extendedData(forKey: key))
        XCTAssertEqual(TemporaryFolder.cacheFileNames(in: folder), [name])
    }

    func testRemoveAllEmptiesTheFolderAndTheCounts() throws {
        let folder = try TemporaryFolder(self).appending("cache")
        let cache = try makeCache(folder, .init(autoTrimInterval: 0, usesExtendedAttributes: false))
        for i in 0..<5 { try cache.store(randomData(100), forKey: "key\(i)") }
        try cache.setExtendedData(Data("m".utf8), forKey: "key0")
        XCTAssertEqual(cache.count, 5)
        cache.removeAll()
        XCTAssertEqual(cache.count, 0)
        XCTAssertEqual(cache.totalAllocatedSize, 0)
        XCTAssertEqual(TemporaryFolder.cacheFileNames(in: folder), [])
        XCTAssertFalse(cache.containsData(forKey: "key1"))
        try cache.store(Data("again".utf8), forKey: "key1")
        XCTAssertEqual(cache.data(forKey: "key1"), Data("again".utf8))
        XCTAssertEqual(cache.count, 1)
    }

    func testAbandonedTemporaryFilesAreCleanedAtStartUpAndNeverCounted() throws {
        let folder = try TemporaryFolder(self).appending("cache")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let abandoned = ".99999999-0123456789abcdef.tmp"  // above any Linux pid_max: its writer is gone
        let inFlight = ".\(ProcessInfo.processInfo.processIdentifier)-fedcba9876543210.tmp"
        try Data("half a fi".utf8).write(to: folder.appendingPathComponent(abandoned))
        try Data("being written".utf8).write(to: folder.appendingPathComponent(inFlight))
        try Data("entry".utf8).write(to: folder.appendingPathComponent(MD5.hex("k")))
        let cache = try makeCache(folder)
        XCTAssertEqual(cache.count, 1)
        XCTAssertEqual(TemporaryFolder.cacheFileNames(in: folder), [inFlight, MD5.hex("k")])
        XCTAssertEqual(cache.data(forKey: "k"), Data("entry".utf8))
    }

    func testDefaultDirectoryFollowsXDG() {
        let url = DiskCache.defaultDirectory(namespace: "thumbs")
        XCTAssertEqual(url.lastPathComponent, "thumbs")
        XCTAssertEqual(url.deletingLastPathComponent().lastPathComponent, "webimage")
        if let xdg = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            XCTAssertEqual(url.deletingLastPathComponent().deletingLastPathComponent().standardizedFileURL.path,
                           URL(fileURLWithPath: xdg).standardizedFileURL.path)
        } else {
            XCTAssertEqual(url.deletingLastPathComponent().deletingLastPathComponent().lastPathComponent, ".cache")
        }
        XCTAssertEqual(DiskCache.defaultDirectory().lastPathComponent, "default")
        XCTAssertEqual(DiskCache.defaultDirectory(namespace: "../up").lastPathComponent, ".._up")
    }
}
