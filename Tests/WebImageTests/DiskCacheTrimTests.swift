import Dispatch
import Foundation
import Locking
import WebImage
import WebImageTestSupport
import XCTest

/// LRU trimming and expiry of ``DiskCache``, on real folders, with an injected clock.
final class DiskCacheTrimTests: XCTestCase {
    private let keys = (0..<7).map { "https://example.com/image\($0).png" }

    private func payload() -> Data {
        Data((0..<10_000).map { _ in UInt8.random(in: 0...255) })
    }

    /// Reads stamp the access time from the cache's own clock, and a fresh cache (a restart)
    /// trims by those stamps. The clock runs in 2100: under `noatime` the read entries would
    /// keep their store times, and under `relatime` the kernel would set them to today, older
    /// than every store stamp; either way the wrong entries would survive if the cache did not
    /// stamp reads itself.
    func testLRUOrderComesFromTheCachesOwnAccessStamps() throws {
        let folder = try TemporaryFolder(self).appending("cache")
        let clock = ManualClock(start: Date(timeIntervalSince1970: 4_102_444_800))
        let writer = try DiskCache(directory: folder, configuration: .init(autoTrimInterval: 0, clock: { clock.date }))
        for key in keys {
            clock.advance(by: 10)
            try writer.store(payload(), forKey: key)
        }
        let entrySize = writer.totalAllocatedSize / keys.count
        XCTAssertEqual(writer.totalAllocatedSize, entrySize * keys.count, "equal payloads take equal space")
        var stamps: [String: Date] = [:]
        for i in [5, 1, 3] {
            clock.advance(by: 100)
            XCTAssertNotNil(writer.data(forKey: keys[i]))
            stamps[keys[i]] = clock.date
        }
        for (key, stamp) in stamps {
            let accessed = try XCTUnwrap(FileStat(writer.cachePath(forKey: key))?.accessDate)
            XCTAssertEqual(accessed.timeIntervalSince1970, stamp.timeIntervalSince1970, accuracy: 1e-3, "access time of \(key)")
        }
        // A restart over the same folder with a limit the folder is already past: the start-up
        // pass trims to 6 × 0.5 = 3 entries, keeping the three read last.
        let restarted = try DiskCache(
            directory: folder,
            configuration: .init(maxSize: entrySize * 6, autoTrimInterval: 0, clock: { clock.date }))
        waitUntil { restarted.count <= 3 }
        XCTAssertEqual(keys.filter(restarted.containsData), [keys[1], keys[3], keys[5]])
        XCTAssertEqual(restarted.totalAllocatedSize, entrySize * 3)
    }

    /// A store that passes `maxSize` trims in the background to `maxSize × trimRatio`,
    /// keeping the entries read most recently (and the one just stored).
    func testWritePastMaxSizeTrimsInTheBackgroundKeepingTheMostRecentlyRead() throws {
        let temp = try TemporaryFolder(self)
        let folder = temp.appending("cache")
        let clock = ManualClock(start: Date(timeIntervalSinceReferenceDate: 0))
        let probe = try DiskCache(directory: temp.appending("probe"), configuration: .init(autoTrimInterval: 0))
        try probe.store(payload(), forKey: "probe")
        let entrySize = probe.totalAllocatedSize
        let cache = try DiskCache(
            directory: folder,
            configuration: .init(maxSize: entrySize * 6, autoTrimInterval: 0, clock: { clock.date }))
        for key in keys.prefix(6) {
            clock.advance(by: 10)
            try cache.store(payload(), forKey: key)
        }
        XCTAssertEqual(cache.count, 6, "at the limit, not past it: nothing is trimmed")
        for i in [0, 4] {
            clock.advance(by: 10)
            XCTAssertNotNil(cache.data(forKey: keys[i]))
        }
        clock.advance(by: 10)
        try cache.store(payload(), forKey: keys[6])
        waitUntil { cache.totalAllocatedSize <= entrySize * 3 }
        XCTAssertEqual(keys.filter(cache.containsData), [keys[0], keys[4], keys[6]])
        XCTAssertEqual(cache.count, 3)
        let onDisk = TemporaryFolder.cacheFileNames(in: folder)
        XCTAssertEqual(onDisk.count, 3)
        XCTAssertEqual(
            cache.totalAllocatedSize,
            onDisk.compactMap { FileStat(folder.appendingPathComponent($0))?.allocatedSize }.reduce(0, +),
            "the running total matches the folder")
    }

    func testMaxAgeByAccessDate() throws {
        let folder = try TemporaryFolder(self).appending("cache")
        let clock = ManualClock()
        let cache = try DiskCache(directory: folder, configuration: .init(maxAge: 100, autoTrimInterval: 0, clock: { clock.date }))
        try cache.store(Data("a".utf8), forKey: "a")
        clock.advance(by: 50)
        try cache.store(Data("b".utf8), forKey: "b")
        try cache.store(Data("c".utf8), forKey: "c")
        clock.advance(by: 40)
        XCTAssertNotNil(cache.data(forKey: "a"), "reads do not check expiry")
        clock.advance(by: 70)  // a was read 70 s ago; b and c were stored 110 s ago
        XCTAssertNotNil(cache.data(forKey: "c"))
        cache.removeExpired()
        XCTAssertEqual(["a", "b", "c"].filter(cache.containsData), ["a", "c"])
        XCTAssertEqual(cache.count, 2)
        clock.advance(by: 101)
        cache.removeExpired()
        XCTAssertEqual(cache.count, 0)
        XCTAssertEqual(TemporaryFolder.cacheFileNames(in: folder), [])
    }

    /// A read rewrites the file's access time only when it is over `accessStampGranularity`
    /// old; expiry in the process still counts every read, from the index.
    func testReadsStampTheFileOnlyPastTheGranularityAndExpiryStillSeesEveryRead() throws {
        let folder = try TemporaryFolder(self).appending("cache")
        let clock = ManualClock(start: Date(timeIntervalSince1970: 4_102_444_800))
        let cache = try DiskCache(
            directory: folder,
            configuration: .init(maxAge: 100, autoTrimInterval: 0, accessStampGranularity: 60, clock: { clock.date }))
        try cache.store(Data("a".utf8), forKey: "a")
        XCTAssertEqual(cache.count, 1, "the index is loaded, so it remembers the reads")
        func fileAccess() throws -> TimeInterval {
            try XCTUnwrap(FileStat(cache.cachePath(forKey: "a"))?.accessDate).timeIntervalSince1970
        }
        clock.advance(by: 50)
        XCTAssertNotNil(cache.data(forKey: "a"))
        // The clock runs in 2100: the kernel may set today's time (relatime), never the read's.
        XCTAssertNotEqual(try fileAccess(), clock.date.timeIntervalSince1970, accuracy: 1, "50 s: the cache does not stamp")
        clock.advance(by: 70)  // 120 s after the store, 70 s after the read
        cache.removeExpired()
        XCTAssertTrue(cache.containsData(forKey: "a"), "the read 70 s ago keeps it")
        XCTAssertNotNil(cache.data(forKey: "a"))
        XCTAssertEqual(try fileAccess(), clock.date.timeIntervalSince1970, accuracy: 1e-3, "120 s: stamped")
    }

    /// An explicit `removeExpired()` sees every entry, even one stored while the background
    /// start-up scan is still running. The injected clock holds that scan: the test touches the
    /// cache only after the clock's first reading, which is the scan's, and that reading returns
    /// only once the test is done. The expired entry goes, the fresh one stays.
    func testRemoveExpiredDuringTheStartUpScanSeesEveryEntry() throws {
        let folder = try TemporaryFolder(self).appending("cache")
        let clock = ManualClock()
        let scanReadTheClock = DispatchSemaphore(value: 0), scanMayGoOn = DispatchSemaphore(value: 0)
        let isFirstReading = Mutex(true)
        let cache = try DiskCache(directory: folder, configuration: .init(maxAge: 100, autoTrimInterval: 0, clock: {
            if isFirstReading.withLock({ first in defer { first = false }; return first }) {
                scanReadTheClock.signal()
                scanMayGoOn.wait()
            }
            return clock.date
        }))
        defer { scanMayGoOn.signal() }
        XCTAssertEqual(scanReadTheClock.wait(timeout: .now() + 30), .success, "the start-up scan reads the clock")
        try cache.store(Data("old".utf8), forKey: "old")
        clock.advance(by: 101)
        try cache.store(Data("new".utf8), forKey: "new")
        cache.removeExpired()
        XCTAssertEqual(["old", "new"].filter(cache.containsData), ["new"], "the entry stored 101 s ago has expired")
        XCTAssertEqual(TemporaryFolder.cacheFileNames(in: folder), [DiskCache.fileName(forKey: "new")])
        XCTAssertEqual(cache.count, 1)
    }

    func testMaxAgeByModificationDateIgnoresReads() throws {
        let folder = try TemporaryFolder(self).appending("cache")
        let clock = ManualClock()
        let cache = try DiskCache(
            directory: folder,
            configuration: .init(maxAge: 100, expireType: .modificationDate, autoTrimInterval: 0, clock: { clock.date }))
        try cache.store(Data("a".utf8), forKey: "a")
        clock.advance(by: 60)
        try cache.store(Data("b".utf8), forKey: "b")
        clock.advance(by: 39)
        XCTAssertNotNil(cache.data(forKey: "a"))
        clock.advance(by: 2)
        cache.removeExpired()
        XCTAssertEqual(["a", "b"].filter(cache.containsData), ["b"])
    }

    func testMaxAgeZeroExpiresEverythingAndNegativeNothing() throws {
        for expireType in [DiskCache.ExpireType.accessDate, .modificationDate, .creationDate] {
            let folder = try TemporaryFolder(self).appending("cache")
            let clock = ManualClock()
            let forever = try DiskCache(
                directory: folder,
                configuration: .init(maxAge: -1, expireType: expireType, autoTrimInterval: 0, clock: { clock.date }))
            for i in 0..<3 { try forever.store(Data([UInt8(i)]), forKey: "k\(i)") }
            clock.advance(by: 100 * 365 * 24 * 3600)
            forever.removeExpired()
            XCTAssertEqual(forever.count, 3, "negative maxAge never expires (\(expireType))")

            clock.advance(by: -100 * 365 * 24 * 3600)
            let immediate = try DiskCache(
                directory: folder,
                configuration: .init(maxAge: 0, expireType: expireType, autoTrimInterval: 0, clock: { clock.date }))
            immediate.removeExpired()
            XCTAssertEqual(immediate.count, 0, "maxAge 0 expires everything (\(expireType))")
            XCTAssertEqual(TemporaryFolder.cacheFileNames(in: folder), [])
        }
    }
    /// A trim deletes the sidecars (extended data kept beside entries when extended attributes
    /// are off) of the entries it deletes, whether its scan found them or the cache wrote them,
    /// and a scan deletes a sidecar whose entry is gone.
    func testTrimsDeleteTheSidecarsOfTheirVictimsAndScansTheOrphans() throws {
        let folder = try TemporaryFolder(self).appending("cache")
        let clock = ManualClock(start: Date(timeIntervalSinceReferenceDate: 0))
        let configuration = DiskCache.Configuration(autoTrimInterval: 0, usesExtendedAttributes: false, clock: { clock.date })
        let writer = try DiskCache(directory: folder, configuration: configuration)
        for key in keys.dropLast() {
            clock.advance(by: 10)
            try writer.store(payload(), forKey: key)
        }
        try writer.setExtendedData(Data("first".utf8), forKey: keys[0])
        let entrySize = writer.totalAllocatedSize / (keys.count - 1)
        // A cache at its limit, whose start-up scan finds the first sidecar; it writes the second.
        var limited = configuration
        limited.maxSize = entrySize * (keys.count - 1)
        let cache = try DiskCache(directory: folder, configuration: limited)
        waitUntil { cache.count == keys.count - 1 }
        try cache.setExtendedData(Data("second".utf8), forKey: keys[1])
        // Behind its back: one more entry, and a sidecar whose entry does not exist.
        clock.advance(by: 10)
        try writer.store(payload(), forKey: keys[6])
        try Data("orphan".utf8).write(to: folder.appendingPathComponent("." + DiskCache.fileName(forKey: "https://example.com/gone.png") + ".meta"))
        func sidecars() -> [String] { TemporaryFolder.cacheFileNames(in: folder).filter { $0.hasSuffix(".meta") } }
        XCTAssertEqual(sidecars().count, 3)
        // 7 entries over a limit of 6: trimmed to 3, the 4 oldest going with their sidecars.
        cache.removeExpired()
        XCTAssertEqual(keys.filter(cache.containsData), Array(keys[4...]))
        XCTAssertEqual(sidecars(), [], "the victims' sidecars and the orphan are gone")
    }
}
