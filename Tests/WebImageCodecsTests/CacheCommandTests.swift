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
        try ChildProcess.run(BuiltProducts.executable("webimage"), arguments, environment: environment)
    }

    /// Stores fixture images under `keys` into `folder`, stamped `age` seconds ago.
    private func store(_ keys: [String], age: TimeInterval) throws {
        let stamp = Date() - age
        let cache = DiskCache(directory: folder, configuration: .init(maxAge: -1, autoTrimInterval: 0, clock: { stamp }))
        for (i, key) in keys.enumerated() {
            let name = ["testjfif_256.jpg", "testjfif_256.webp", "testimagelarge_256.png"][i % 3]
            try cache.store(try Fixtures.data(Fixtures.bench(name)), forKey: key)
        }
    }

    /// The entry files in the folder, sorted.
    private func entryFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
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

    func testDefaultFolderIsUnderXDGCacheHome() throws {
        let cacheHome = folder.appendingPathComponent("xdg")
        let expected = cacheHome.appendingPathComponent("webimage/default")
        try FileManager.default.createDirectory(at: expected, withIntermediateDirectories: true)
        let stats = try webimage("cache", "stats", environment: ["XDG_CACHE_HOME": cacheHome.path])
        XCTAssertEqual(stats.status, 0, stats.error)
        XCTAssertEqual(stats.output, "folder: \(expected.path)\nentries: 0\nsize: 0 B (0 bytes)\n")
    }

    func testAMissingFolderIsAOneLineErrorWithStatus1() throws {
        let missing = folder.appendingPathComponent("missing").path
        for action in ["stats", "clean", "clear"] {
            let result = try webimage("cache", action, "--cache-dir", missing)
            XCTAssertEqual(result.status, 1, action)
            XCTAssertEqual(result.output, "", action)
            XCTAssertEqual(result.error, "webimage: no cache folder at \(missing)\n", action)
        }
        let file = folder.appendingPathComponent("file")
        try Data("x".utf8).write(to: file)
        let notAFolder = try webimage("cache", "clear", "--cache-dir", file.path)
        XCTAssertEqual(notAFolder.status, 1)
        XCTAssertEqual(notAFolder.error, "webimage: \(file.path) is not a folder\n")
        XCTAssertEqual(try Data(contentsOf: file), Data("x".utf8))
    }
}
