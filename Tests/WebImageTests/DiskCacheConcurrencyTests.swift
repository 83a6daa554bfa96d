import Foundation
import WebImage
import WebImageTestSupport
import XCTest

final class DiskCacheConcurrencyTests: XCTestCase {
    /// Many tasks store and read distinct keys and fight over shared ones: every distinct
    /// entry survives intact, a shared entry is one writer's whole payload (never a mix), and
    /// the running count and size match the folder.
    func testConcurrentStoresAndReadsLoseNothing() async throws {
        let folder = try TemporaryFolder(self).appending("cache")
        let cache = try DiskCache(directory: folder, configuration: .init(autoTrimInterval: 0))
        let tasks = 12, perTask = 40
        func payload(_ task: Int, _ i: Int) -> Data {
            Data(repeating: UInt8(truncatingIfNeeded: task * 31 + i), count: 1_000 + (task * perTask + i) * 37)
        }
        await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    for i in 0..<perTask {
                        try cache.store(payload(task, i), forKey: "https://example.com/\(task)/\(i).png")
                        try cache.store(payload(task, i), forKey: "https://example.com/shared\(i % 4).png")
                        XCTAssertEqual(cache.data(forKey: "https://example.com/\(task)/\(i).png"), payload(task, i))
                        if let shared = cache.data(forKey: "https://example.com/shared\((i + 1) % 4).png") {
                            XCTAssertEqual(Set(shared).count, 1, "a reader saw a torn file")
                        }
                    }
                }
            }
        }
        for task in 0..<tasks {
            for i in 0..<perTask {
                XCTAssertEqual(cache.data(forKey: "https://example.com/\(task)/\(i).png"), payload(task, i))
            }
        }
        let expected = tasks * perTask + 4
        XCTAssertEqual(cache.count, expected)
        let names = TemporaryFolder.cacheFileNames(in: folder)
        XCTAssertEqual(names.count, expected, "no temporary file is left behind")
        let onDisk = names.compactMap { FileStat(folder.appendingPathComponent($0))?.allocatedSize }.reduce(0, +)
        XCTAssertEqual(cache.totalAllocatedSize, onDisk)
        XCTAssertEqual(try DiskCache(directory: folder, configuration: .init(autoTrimInterval: 0)).totalAllocatedSize, onDisk)
    }

    /// Stores from many tasks race with the background trims they start: in the end the
    /// folder is within `maxSize` and the running count and size still match it.
    func testTrimsRacingWithStoresKeepTheIndexExact() async throws {
        let temp = try TemporaryFolder(self)
        let probe = try DiskCache(directory: temp.appending("probe"), configuration: .init(autoTrimInterval: 0))
        try probe.store(Data(count: 10_000), forKey: "probe")
        let maxSize = probe.totalAllocatedSize * 20
        let folder = temp.appending("cache")
        let cache = try DiskCache(directory: folder, configuration: .init(maxSize: maxSize, autoTrimInterval: 0))
        await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for i in 0..<30 {
                        try cache.store(Data(repeating: UInt8(i), count: 10_000), forKey: "k\(task)-\(i)")
                        _ = cache.data(forKey: "k\((task + 3) % 8)-\(i / 2)")
                    }
                }
            }
        }
        func onDisk() -> (count: Int, size: Int) {
            let names = TemporaryFolder.cacheFileNames(in: folder)
            return (names.count, names.compactMap { FileStat(folder.appendingPathComponent($0))?.allocatedSize }.reduce(0, +))
        }
        // Once the last trim is done, the index and the folder agree and are within the limit.
        waitUntil {
            let disk = onDisk()
            return cache.totalAllocatedSize <= maxSize && cache.count == disk.count && cache.totalAllocatedSize == disk.size
        }
        XCTAssertGreaterThan(cache.count, 0)
    }
}
