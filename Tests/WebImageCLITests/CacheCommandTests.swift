#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import WebImage
import WebImageTestSupport
import XCTest

/// `webimage cache stats|clean|clear`, run as the built binary on a folder prepared with DiskCache.
final class CacheCommandTests: XCTestCase {
    private var folder: URL!
    private let week: TimeInterval = 7 * 24 * 60 * 60

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs `webimage` with `arguments`.
    private func webimage(_ arguments: String..., environment: [String: String] = [:]) throws
        -> (status: Int32?, output: String, error: String)
    {
        try webimage(arguments, environment: environment)
    }

    private func webimage(_ arguments: [String], environment: [String: String] = [:]) throws
        -> (status: Int32?, output: String, error: String)
    {
        try ChildProcess.run(BuiltProducts.executable("webimage"), arguments, environment: environment)
    }

    /// Stores fixture images under `keys` into `folder`, stamped `age` seconds ago.
    private func store(_ keys: [String], age: TimeInterval) throws {
        let stamp = Date() - age
        let cache = try DiskCache(directory: folder, configuration: .init(maxAge: -1, autoTrimInterval: 0, adoptsExistingFolder: true, clock: { stamp }))
        for (i, key) in keys.enumerated() {
            let name = ["testjfif_256.jpg", "testjfif_256.webp", "testimagelarge_256.png"][i % 3]
            try cache.store(try Fixtures.data(Fixtures.bench(name)), forKey: key)
        }
    }

    /// The entry files in the folder, sorted (not the hidden ones, nor the CACHEDIR.TAG).
    private func entryFiles() -> [String] {
        TemporaryFolder.cacheFileNames(in: folder).filter { !$0.hasPrefix(".") }
    }

    /// The allocated size of the entry files `names`, as the cache counts sizes.
    private func allocatedSize(_ names: [String]) -> Int {
        names.reduce(0) { sum, name in
            var info = stat()
            XCTAssertEqual(stat(folder.appendingPathComponent(name).path, &info), 0)
            return sum + Int(info.st_blocks) * 512
        }
    }

    /// How the tool shows `bytes` below 1 MiB.
    private func describe(_ bytes: Int) -> String {
        String(format: "%.1f KiB (%d bytes)", Double(bytes) / 1024, bytes)
    }

    func testStatsCleanClear() throws {
        let fresh = (0..<3).map { "https://example.com/fresh\($0).jpg" }
        let stale = (0..<2).map { "https://example.com/stale\($0).jpg" }
        try store(fresh, age: 60)
        try store(stale, age: week + 3600)
        let freshFiles = fresh.map { DiskCache.fileName(forKey: $0) }.sorted()
        let staleFiles = stale.map { DiskCache.fileName(forKey: $0) }.sorted()
        let freshSize = allocatedSize(freshFiles), total = allocatedSize(freshFiles + staleFiles)
        XCTAssertTrue(freshSize > 1024 && total < 1 << 20, "sizes in the KiB range, as `describe` shows them")

        let stats = try webimage("cache", "stats", "--cache-dir", folder.path)
        XCTAssertEqual(stats.status, 0, stats.error)
        XCTAssertEqual(stats.output, "folder: \(folder.path)\nentries: 5\nsize: \(describe(total))\n")
        XCTAssertEqual(entryFiles().count, 5, "stats deletes nothing, not even expired entries")

        let removedLines = staleFiles.map { name in
            "removed \(name) (" + String(format: "%.1f KiB", Double(allocatedSize([name])) / 1024) + ")"
        }
        let clean = try webimage("cache", "clean", "--cache-dir", folder.path)
        XCTAssertEqual(clean.status, 0, clean.error)
        XCTAssertEqual(clean.output, (removedLines + [
            "removed 2 expired entries, \(describe(total - freshSize)); 3 entries, \(describe(freshSize)) remain in \(folder.path)",
        ]).map { $0 + "\n" }.joined())
        XCTAssertEqual(entryFiles(), freshFiles)

        let clear = try webimage("cache", "clear", "--cache-dir", folder.path)
        XCTAssertEqual(clear.status, 0, clear.error)
        XCTAssertEqual(clear.output, "removed 3 entries, \(describe(freshSize)) from \(folder.path)\n")
        XCTAssertEqual(entryFiles(), [])
        let empty = try webimage("cache", "stats", "--cache-dir", folder.path)
        XCTAssertEqual(empty.output, "folder: \(folder.path)\nentries: 0\nsize: 0 B (0 bytes)\n")
    }

    /// A `webimage serve --cache-dir` folder holds two caches, `sources/` and `results/`, and no
    /// tag of its own: the commands act on both instead of refusing it as a folder of user files.
    func testAServeCacheFolderIsTakenAsItsTwoCaches() throws {
        let caches = ["sources", "results"].map { folder.appendingPathComponent($0) }
        for (index, cache) in caches.enumerated() {
            let disk = try DiskCache(directory: cache, configuration: .init(autoTrimInterval: 0))
            for key in 0...index { try disk.store(try Fixtures.data(Fixtures.bench("testjfif_256.jpg")), forKey: "\(key)") }
        }
        let stats = try webimage("cache", "stats", "--cache-dir", folder.path)
        XCTAssertEqual(stats.status, 0, stats.error)
        let lines = stats.output.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.filter { $0.hasPrefix("folder: ") }, caches.map { "folder: " + $0.path })
        XCTAssertEqual(lines.filter { $0.hasPrefix("entries: ") }, ["entries: 1", "entries: 2"])
        let clean = try webimage("cache", "clean", "--cache-dir", folder.path)
        XCTAssertEqual(clean.status, 0, clean.error)
        XCTAssertEqual(clean.output.split(separator: "\n").count, 2, clean.output)
        let clear = try webimage("cache", "clear", "--cache-dir", folder.path)
        XCTAssertEqual(clear.status, 0, clear.error)
        XCTAssertTrue(clear.output.contains("removed 2 entries"), clear.output)
        for cache in caches {
            XCTAssertEqual(TemporaryFolder.cacheFileNames(in: cache).filter { !$0.hasPrefix(".") }, [])
        }
    }

    func testDefaultFolderIsUnderXDGCacheHome() throws {
        let cacheHome = folder.appendingPathComponent("xdg")
        let expected = cacheHome.appendingPathComponent("webimage/default")
        try FileManager.default.createDirectory(at: expected, withIntermediateDirectories: true)
        let stats = try webimage("cache", "stats", environment: ["XDG_CACHE_HOME": cacheHome.path])
        XCTAssertEqual(stats.status, 0, stats.error)
        XCTAssertEqual(stats.output, "folder: \(expected.path)\nentries: 0\nsize: 0 B (0 bytes)\n")
    }

    func testAMissingFolderIsAnEmptyCacheAndIsNotCreated() throws {
        let missing = folder.appendingPathComponent("missing").path
        let expected = [
            "stats": "folder: \(missing)\nentries: 0\nsize: 0 B (0 bytes)\n",
            "clean": "removed 0 expired entries, 0 B (0 bytes); 0 entries, 0 B (0 bytes) remain in \(missing)\n",
            "clear": "removed 0 entries, 0 B (0 bytes) from \(missing)\n",
        ]
        for (action, output) in expected {
            let result = try webimage("cache", action, "--cache-dir", missing)
            XCTAssertEqual(result.status, 0, action)
            XCTAssertEqual(result.output, output, action)
            XCTAssertEqual(result.error, "", action)
            XCTAssertFalse(FileManager.default.fileExists(atPath: missing), action)
        }
    }

    func testAFileIsNotAFolder() throws {
        let file = folder.appendingPathComponent("file")
        try Data("x".utf8).write(to: file)
        let notAFolder = try webimage("cache", "clear", "--cache-dir", file.path)
        XCTAssertEqual(notAFolder.status, 1)
        XCTAssertEqual(notAFolder.error, "webimage: \(file.path) is not a folder\n")
        XCTAssertEqual(try Data(contentsOf: file), Data("x".utf8))
    }

    /// A folder of somebody's files: every command refuses it, and with --adopt-cache-dir
    /// counts and deletes only the cache's own entries.
    func testAFolderOfUserFilesIsRefusedAndAdoptedOnlyWhenAsked() throws {
        let userFiles = ["thesis.txt": Date() - 30 * 24 * 3600, "holiday.jpg": Date() - 60, "notes.txt": Date() - 8 * 24 * 3600]
        var contents: [String: Data] = [:]
        for (name, date) in userFiles {
            let url = folder.appendingPathComponent(name)
            contents[name] = Data("\(name) is the user's\n".utf8)
            try contents[name]!.write(to: url)
            try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: url.path)
        }
        func assertUserFilesIntact(_ step: String) {
            for (name, data) in contents {
                XCTAssertEqual(try? Data(contentsOf: folder.appendingPathComponent(name)), data, "\(name) after \(step)")
            }
        }
        let image = Fixtures.bench("testjfif_256.jpg").absoluteString
        for arguments in [["cache", "stats"], ["cache", "clean"], ["cache", "clear"], ["get", image]] {
            let result = try webimage(arguments + ["--cache-dir", folder.path])
            XCTAssertEqual(result.status, 1, "\(arguments)")
            XCTAssertTrue(result.error.hasPrefix("webimage: \(folder.path) is not a cache folder"), result.error)
            XCTAssertTrue(result.error.contains("--adopt-cache-dir"), result.error)
            assertUserFilesIntact("\(arguments)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("CACHEDIR.TAG").path))

        let adopted = ["--cache-dir", folder.path, "--adopt-cache-dir"]
        let get = try webimage(["get", image] + adopted)
        XCTAssertEqual(get.status, 0, get.error)
        try store(["https://example.com/old.jpg"], age: week + 3600)
        let stats = try webimage(["cache", "stats"] + adopted)
        XCTAssertTrue(stats.output.contains("entries: 2\n"), stats.output)
        let clean = try webimage(["cache", "clean"] + adopted)
        XCTAssertTrue(clean.output.hasPrefix("removed \(DiskCache.fileName(forKey: "https://example.com/old.jpg"))"), clean.output)
        XCTAssertTrue(clean.output.contains("removed 1 expired entry"), clean.output)
        let clear = try webimage(["cache", "clear"] + adopted)
        XCTAssertTrue(clear.output.hasPrefix("removed 1 entry"), clear.output)
        assertUserFilesIntact("adopted commands")
        XCTAssertEqual(Set(TemporaryFolder.names(in: folder)), Set(userFiles.keys), "the user's files and nothing else")
    }

    /// A read-only cache folder: `get` says so once, reads its entries, loads the rest, and
    /// stores nothing (so no warning per URL).
    func testGetWarnsOnceAboutAReadOnlyCacheFolder() throws {
        let cached = Fixtures.bench("testjfif_256.jpg").absoluteString
        let others = ["testjfif_256.webp", "testimagelarge_256.png"].map { Fixtures.bench($0).absoluteString }
        let first = try webimage("get", cached, "--cache-dir", folder.path)
        XCTAssertEqual(first.status, 0, first.error)
        do {
            try Mount.readOnly(folder)
        } catch {
            throw MachineGuard.notPermitted("this test needs to mount a file system (run as root): \(error)")
        }
        defer { try? Mount.unmount(folder) }
        let result = try webimage(["get", cached] + others + ["--cache-dir", folder.path])
        XCTAssertEqual(result.status, 0, result.error)
        XCTAssertEqual(result.error, "webimage: the cache folder \(folder.path) is read-only: images are read from it but not stored\n")
        let lines = result.output.split(separator: "\n")
        XCTAssertTrue(lines.contains { $0.hasPrefix("disk ") && $0.hasSuffix(cached) }, result.output)
        XCTAssertEqual(lines.filter { line in others.contains { line.hasSuffix($0) } }.count, 2, result.output)
    }
}
