import Foundation
import LoopbackHTTPServer
import WebImage
import WebImageTestSupport
import XCTest

/// The disk tier failing under the manager — its folder deleted, made read-only, full: loads
/// go on from memory or the network, failed stores are logged, and no partial file is ever left.
final class DiskFaultTests: LoadingTestCase {
    private var folder: TemporaryFolder!
    private let log = LogRecorder()

    override func setUp() async throws {
        try await super.setUp()
        folder = try TemporaryFolder(self)
    }

    /// An image cache over `directory` with a fresh memory tier.
    private func makeCache(_ directory: URL) throws -> ImageCache {
        ImageCache(memory: MemoryCache(), disk: try DiskCache(directory: directory, configuration: .init(autoTrimInterval: 0)),
                   coders: Self.coders)
    }

    /// A manager over `cache` that logs to ``log``.
    private func makeManager(_ cache: ImageCache, _ downloader: HTTPImageDownloader) -> ImageManager {
        ImageManager(imageCache: cache, imageLoader: downloader, coders: Self.coders, logger: log.logger)
    }

    /// Serves `fixture` (below `bench/`) on each of `paths` and returns their URLs.
    private func serve(_ fixture: String, on paths: [String]) throws -> [URL] {
        let data = try bench(fixture)
        return paths.map { path in
            server.route(path, .bytes(data, contentType: "image/jpeg"))
            return server.url(path)
        }
    }

    /// The cache folder, created, with `mount` applied to it; skips the test when the system
    /// refuses the mount, and unmounts it before the folder is deleted.
    private func mountedFolder(_ mount: (URL) throws -> Void) throws -> URL {
        let directory = folder.appending("cache")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        do {
            try mount(directory)
        } catch {
            throw MachineGuard.notPermitted("this test needs to mount a file system (run as root): \(error)")
        }
        addTeardownBlock { try? Mount.unmount(directory) }
        return directory
    }

    /// The entry names in `directory` (hidden temporary and sidecar files left out) and the
    /// hidden ones, apart.
    private func names(in directory: URL) -> (entries: [String], hidden: [String]) {
        let names = TemporaryFolder.cacheFileNames(in: directory)
        return (names.filter { !$0.hasPrefix(".") }, names.filter { $0.hasPrefix(".") })
    }

    func testADeletedFolderIsRecreatedAndStoresWorkAgain() async throws {
        let urls = try serve("testjfif_256.jpg", on: ["/a.jpg", "/b.jpg"])
        let directory = folder.appending("cache")
        let downloader = makeDownloader()
        let manager = try makeManager(makeCache(directory), downloader)
        _ = try await manager.image(for: urls[0], options: .waitStoreCache)
        XCTAssertEqual(names(in: directory).entries.count, 1)

        try FileManager.default.removeItem(at: directory)
        let fromMemory = try await manager.image(for: urls[0])
        XCTAssertEqual(fromMemory.source, .memory, "the memory tier does not depend on the folder")
        let stored = try await manager.image(for: urls[1], options: .waitStoreCache)
        XCTAssertEqual(stored.source, .network)
        XCTAssertEqual(names(in: directory).entries, [DiskCache.fileName(forKey: urls[1].absoluteString)])

        let restarted = try makeManager(makeCache(directory), downloader)
        let b = try await restarted.image(for: urls[1])
        XCTAssertEqual(b.source, .disk, "the store after the deletion is on disk")
        let a = try await restarted.image(for: urls[0])
        XCTAssertEqual(a.source, .network, "the deleted entry is gone and fetched again")
        XCTAssertEqual(log.messages(at: .warning), [])
    }

    func testAReadOnlyFolderStillLoadsFromTheNetworkAndLogsTheFailedStores() async throws {
        let urls = try serve("testjfif_256.jpg", on: ["/a.jpg", "/b.jpg"])
        let directory = folder.appending("cache")
        let downloader = makeDownloader()
        _ = try await makeManager(makeCache(directory), downloader).image(for: urls[0], options: .waitStoreCache)
        _ = try mountedFolder(Mount.readOnly)

        let manager = try makeManager(makeCache(directory), downloader)
        let a = try await manager.image(for: urls[0])
        XCTAssertEqual(a.source, .disk, "reads go on")
        let b = try await manager.image(for: urls[1], options: .waitStoreCache)
        XCTAssertEqual(b.source, .network)
        XCTAssertEqual(b.image.pixelWidth, 256)
        let warnings = log.messages(at: .warning)
        XCTAssertEqual(warnings.count, 1, "\(warnings)")
        XCTAssertTrue(warnings.first?.contains(urls[1].absoluteString) == true, "\(warnings)")
        XCTAssertTrue(warnings.first?.contains("Read-only file system") == true, "\(warnings)")
        let again = try await manager.image(for: urls[1])
        XCTAssertEqual(again.source, .memory)
        XCTAssertEqual(names(in: directory).entries, [DiskCache.fileName(forKey: urls[0].absoluteString)])
        XCTAssertEqual(names(in: directory).hidden, [], "no temporary file")
    }

    func testAFileWhereTheFolderShouldBeFailsTheStoresButNotTheLoads() async throws {
        let urls = try serve("testjfif_256.jpg", on: ["/a.jpg"])
        let directory = folder.appending("cache")
        try Data("not a folder".utf8).write(to: directory)
        XCTAssertThrowsError(try makeCache(directory)) { error in
            XCTAssertEqual(error as? DiskCacheError, .notAFolder(path: directory.path))
        }
        try FileManager.default.removeItem(at: directory)
        let cache = try makeCache(directory)
        // The file appears after the cache was opened: its stores fail, its loads do not.
        try Data("not a folder".utf8).write(to: directory)
        let manager = makeManager(cache, makeDownloader())
        let loaded = try await manager.image(for: urls[0], options: .waitStoreCache)
        XCTAssertEqual(loaded.source, .network)
        let warnings = log.messages(at: .warning)
        XCTAssertEqual(warnings.count, 1, "\(warnings)")
        XCTAssertTrue(warnings.first?.contains("Not a directory") == true, "\(warnings)")
        let again = try await manager.image(for: urls[0])
        XCTAssertEqual(again.source, .memory)
        XCTAssertEqual(try Data(contentsOf: directory), Data("not a folder".utf8), "the file is left alone")
    }

    func testAFullDiskNeverKeepsAPartialFileAndLoadsGoOn() async throws {
        let paths = (1...6).map { "/\($0).jpg" }
        let urls = try serve("testjfif_1024.jpg", on: paths)
        let entrySize = try bench("testjfif_1024.jpg").count
        // Room for two entries: the third store runs out of space part-way through its write.
        let directory = try mountedFolder { try Mount.tmpfs(at: $0, bytes: entrySize * 5 / 2) }
        let downloader = makeDownloader()
        let manager = try makeManager(makeCache(directory), downloader)
        for url in urls {
            let result = try await manager.image(for: url, options: .waitStoreCache)
            XCTAssertEqual(result.source, .network)
            XCTAssertEqual(result.image.pixelWidth, 1024)
        }

        let (entries, hidden) = names(in: directory)
        XCTAssertEqual(entries.count, 2, "\(entries)")
        XCTAssertEqual(hidden, [], "no temporary file is left behind")
        for name in entries {
            let data = try Data(contentsOf: directory.appendingPathComponent(name))
            XCTAssertEqual(data.count, entrySize, name)
            XCTAssertNoThrow(try Self.coders.decode(data, options: ImageDecodeOptions()), name)
        }
        let warnings = log.messages(at: .warning)
        XCTAssertEqual(warnings.count, urls.count - entries.count, "\(warnings)")
        XCTAssertTrue(warnings.allSatisfy { $0.contains("No space left on device") }, "\(warnings)")

        for url in urls {
            let result = try await manager.image(for: url)
            XCTAssertEqual(result.source, .memory, "every image is still in memory")
        }
        let restarted = try makeManager(makeCache(directory), downloader)
        var sources: [ImageSource] = []
        for url in urls { sources.append(try await restarted.image(for: url).source) }
        XCTAssertEqual(sources.filter { $0 == .disk }.count, 2)
        XCTAssertEqual(sources.filter { $0 == .network }.count, urls.count - 2)
    }
}
