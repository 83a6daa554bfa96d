import Foundation
import WebImage
import XCTest

final class MemoryCacheTests: XCTestCase {
    func testCountLimitEvictsLeastRecentlyUsed() {
        let cache = MemoryCache<String, Int>(costLimit: 0, countLimit: 3)
        cache.setValue(1, forKey: "a")
        cache.setValue(2, forKey: "b")
        cache.setValue(3, forKey: "c")
        XCTAssertEqual(cache.value(forKey: "a"), 1)  // a is now the most recent; b the least
        cache.setValue(4, forKey: "d")
        XCTAssertEqual(cache.count, 3)
        XCTAssertFalse(cache.contains("b"))
        XCTAssertEqual(cache.value(forKey: "a"), 1)
        XCTAssertEqual(cache.value(forKey: "c"), 3)
        XCTAssertEqual(cache.value(forKey: "d"), 4)
        // Order is now a, c, d (oldest first): the next two stores evict a, then c.
        cache.setValue(5, forKey: "e")
        cache.setValue(6, forKey: "f")
        XCTAssertEqual(["a", "c", "d", "e", "f"].filter(cache.contains), ["d", "e", "f"])
    }

    /// Hits on the oldest, a middle and the newest entry each make it the newest; the order
    /// shows when the count limit is lowered one entry at a time.
    func testHitsOnEveryPositionReorderTheList() {
        let cache = MemoryCache<String, Int>(costLimit: 0, countLimit: 0)
        for (value, key) in ["a", "b", "c", "d"].enumerated() { cache.setValue(value, forKey: key) }
        XCTAssertEqual(cache.value(forKey: "a"), 0)  // the oldest: b c d a
        XCTAssertEqual(cache.value(forKey: "c"), 2)  // a middle one: b d a c
        XCTAssertEqual(cache.value(forKey: "c"), 2)  // the newest: unchanged
        var evictedInOrder: [String] = []
        for limit in (0..<4).reversed() {
            cache.countLimit = max(limit, 1)
            evictedInOrder += ["a", "b", "c", "d"].filter { !cache.contains($0) && !evictedInOrder.contains($0) }
        }
        XCTAssertEqual(evictedInOrder, ["b", "d", "a"])
        XCTAssertTrue(cache.contains("c"))
        cache.setValue(9, forKey: "e")
        XCTAssertEqual(cache.value(forKey: "c"), nil, "the list's tail was relinked correctly: c goes next")
        XCTAssertEqual(cache.value(forKey: "e"), 9)
    }

    func testCostLimitEvictsLeastRecentlyUsedUntilUnderLimit() {
        let cache = MemoryCache<String, String>(costLimit: 100)
        cache.setValue("A", forKey: "a", cost: 40)
        cache.setValue("B", forKey: "b", cost: 40)
        _ = cache.value(forKey: "a")
        cache.setValue("C", forKey: "c", cost: 40)
        XCTAssertEqual(cache.totalCost, 80)
        XCTAssertNil(cache.value(forKey: "b"))
        XCTAssertEqual(cache.value(forKey: "a"), "A")
        XCTAssertEqual(cache.value(forKey: "c"), "C")
        // One big entry pushes out both older ones.
        cache.setValue("D", forKey: "d", cost: 90)
        XCTAssertEqual(cache.count, 1)
        XCTAssertEqual(cache.totalCost, 90)
    }

    func testReplacingAnEntryUpdatesItsCost() {
        let cache = MemoryCache<String, Int>(costLimit: 0)
        cache.setValue(1, forKey: "a", cost: 10)
        cache.setValue(2, forKey: "a", cost: 30)
        XCTAssertEqual(cache.count, 1)
        XCTAssertEqual(cache.totalCost, 30)
        XCTAssertEqual(cache.value(forKey: "a"), 2)
    }

    func testOversizedEntryIsNotKeptAndDropsTheOlderValue() {
        let cache = MemoryCache<String, Int>(costLimit: 100)
        cache.setValue(1, forKey: "keep", cost: 10)
        cache.setValue(2, forKey: "a", cost: 10)
        cache.setValue(3, forKey: "a", cost: 101)
        XCTAssertNil(cache.value(forKey: "a"))
        cache.setValue(4, forKey: "b", cost: 500)
        XCTAssertNil(cache.value(forKey: "b"))
        XCTAssertEqual(cache.value(forKey: "keep"), 1, "an oversized store must not evict other entries")
        XCTAssertEqual(cache.count, 1)
        XCTAssertEqual(cache.totalCost, 10)
        cache.setValue(5, forKey: "exact", cost: 90)
        XCTAssertEqual(cache.value(forKey: "exact"), 5, "an entry exactly at the limit fits")
    }

    func testAgeLimitWithInjectedClock() {
        let clock = ManualClock()
        let cache = MemoryCache<String, Int>(costLimit: 0, ageLimit: 10, clock: { clock.instant })
        cache.setValue(1, forKey: "a")
        clock.advance(by: 6)
        cache.setValue(2, forKey: "b")
        XCTAssertEqual(cache.value(forKey: "a"), 1, "reading does not extend the age")
        clock.advance(by: 4)  // a is 10 s old: expired; b is 4 s old
        XCTAssertFalse(cache.contains("a"))
        XCTAssertNil(cache.value(forKey: "a"))
        XCTAssertEqual(cache.value(forKey: "b"), 2)
        XCTAssertEqual(cache.count, 1, "an expired entry found by a read is freed")
        cache.setValue(3, forKey: "b")  // storing again restarts the age
        clock.advance(by: 9)
        XCTAssertEqual(cache.value(forKey: "b"), 3)
        cache.setValue(4, forKey: "c")
        clock.advance(by: 5)
        cache.removeExpired()
        XCTAssertEqual(cache.count, 1)
        XCTAssertEqual(cache.value(forKey: "c"), 4)
        cache.ageLimit = 0
        clock.advance(by: 1_000_000)
        XCTAssertEqual(cache.value(forKey: "c"), 4, "ageLimit 0 means forever")
    }

    func testRemovalAndLoweringLimits() {
        let cache = MemoryCache<Int, Int>(costLimit: 0)
        for i in 0..<10 { cache.setValue(i * 10, forKey: i, cost: 1) }
        XCTAssertEqual(cache.removeValue(forKey: 3), 30)
        XCTAssertNil(cache.removeValue(forKey: 3))
        XCTAssertEqual(cache.count, 9)
        XCTAssertEqual(cache.totalCost, 9)
        _ = cache.value(forKey: 0)
        cache.countLimit = 2  // keeps the two most recent: 0 (read last) and 9 (stored last)
        XCTAssertEqual(cache.count, 2)
        XCTAssertTrue(cache.contains(0))
        XCTAssertTrue(cache.contains(9))
        cache.countLimit = 0
        cache.setValue(1, forKey: 1, cost: 5)
        cache.costLimit = 4
        XCTAssertFalse(cache.contains(1))
        cache.removeAll()
        XCTAssertEqual(cache.count, 0)
        XCTAssertEqual(cache.totalCost, 0)
        cache.setValue(7, forKey: 7, cost: 1)
        XCTAssertEqual(cache.value(forKey: 7), 7, "the cache works after removeAll")
    }

    func testDefaultCostLimitIsAnEighthOfPhysicalMemory() {
        let cache = MemoryCache<String, Int>()
        XCTAssertEqual(cache.costLimit, Int(ProcessInfo.processInfo.physicalMemory / 8))
        XCTAssertEqual(cache.countLimit, 0)
    }

    func testManyEntriesKeepOnlyTheNewestUnderACountLimit() {
        let cache = MemoryCache<Int, Int>(costLimit: 0, countLimit: 1000)
        for i in 0..<100_000 { cache.setValue(i, forKey: i, cost: 1) }
        XCTAssertEqual(cache.count, 1000)
        XCTAssertEqual(cache.totalCost, 1000)
        XCTAssertNil(cache.value(forKey: 98_999))
        XCTAssertEqual((99_000..<100_000).filter { cache.value(forKey: $0) == $0 }.count, 1000)
    }

    func testConcurrentAccessLosesNothing() async {
        let cache = MemoryCache<String, [UInt8]>(costLimit: 0)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<16 {
                group.addTask {
                    for i in 0..<500 {
                        let key = "\(task)-\(i)"
                        cache.setValue([UInt8(truncatingIfNeeded: i)], forKey: key, cost: 1)
                        _ = cache.value(forKey: "\((task + 1) % 16)-\(i)")
                        XCTAssertEqual(cache.value(forKey: key), [UInt8(truncatingIfNeeded: i)])
                    }
                }
            }
        }
        XCTAssertEqual(cache.count, 16 * 500)
        XCTAssertEqual(cache.totalCost, 16 * 500)
    }
}
