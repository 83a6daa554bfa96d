import Foundation
import WebImage
import WebImageRedis
import WebImageTestSupport
import XCTest

/// Managers with local caches of their own over one Redis: what they fetch from the origin,
/// and how loads fare when Redis dies, comes back, or hangs.
final class SharedTierTests: RedisTestCase {
    func testTwoManagersFetchASourceOnceBetweenThem() async throws {
        let shared = makeRedisCache()
        let first = try makeManager("first", shared: shared)
        let secondRedis = makeRedisCache()
        let second = try makeManager("second", shared: secondRedis)
        let (url, data) = try serve("testjfif_256.png")

        let loaded = try await first.image(for: url, options: .waitStoreCache)
        let cached = try await second.image(for: url, options: .waitStoreCache)

        XCTAssertEqual(loaded.source, .network)
        XCTAssertEqual(cached.source, .disk, "answered by the shared tier")
        XCTAssertEqual(cached.data, data)
        XCTAssertEqual(cached.image.pixelWidth, 256)
        XCTAssertEqual(origin.requestCount("/testjfif_256.png"), 1)

        // The shared tier's hit was written back to the tiers above it.
        let again = try await second.image(for: url)
        XCTAssertEqual(again.source, .memory)
        let localDisk = try DiskCache(directory: folder.appending("second"), configuration: .init(autoTrimInterval: 0))
        XCTAssertEqual(localDisk.data(forKey: url.absoluteString), data, "and to the local disk")
        XCTAssertEqual(secondRedis.hits, 1)
    }

    func testLoadsSurviveAnOutageWithOneWarningAndHitsResumeAfterARestart() async throws {
        let log = LogRecorder()
        var configuration = redis.configuration()
        configuration.retryInterval = .milliseconds(100)
        let shared = makeRedisCache(configuration, logger: log)
        let first = try makeManager("first", shared: shared)
        let second = try makeManager("second", shared: shared)
        let (before, _) = try serve("testjfif_256.png", at: "/before.png")
        _ = try await first.image(for: before, options: .waitStoreCache)

        redis.kill()
        let (during, _) = try serve("testjfif_256.png", at: "/during.png")
        let duringFirst = try await first.image(for: during, options: .waitStoreCache)
        let duringSecond = try await second.image(for: during, options: .waitStoreCache)
        let beforeSecond = try await second.image(for: before, options: .waitStoreCache)
        XCTAssertEqual([duringFirst.source, duringSecond.source, beforeSecond.source], [.network, .network, .network],
                       "Redis down: each manager goes to the origin")
        XCTAssertGreaterThanOrEqual(shared.errors, 3)
        XCTAssertEqual(log.messages(at: .warning).count, 1, "one warning for the whole outage: \(log.messages(at: .warning))")

        try await redis.start()
        // After a failed attempt commands fail at once for the retry interval; past it the next one connects.
        try await Task.sleep(for: .milliseconds(200))
        let (after, _) = try serve("testjfif_256.png", at: "/after.png")
        let afterFirst = try await first.image(for: after, options: .waitStoreCache)
        XCTAssertEqual(afterFirst.source, .network)
        let hitsBefore = shared.hits
        let afterSecond = try await second.image(for: after, options: .waitStoreCache)
        XCTAssertEqual(afterSecond.source, .disk, "hits resume once Redis is back")
        XCTAssertEqual(shared.hits, hitsBefore + 1)
        XCTAssertEqual(origin.requestCount("/after.png"), 1)
        XCTAssertEqual(log.messages(at: .notice).count, 1, "one notice that Redis answers again")
        XCTAssertEqual(log.messages(at: .warning).count, 1)
    }

    func testAServerThatNeverAnswersCostsALoadOnlyTheTimeouts() async throws {
        let silent = try await SilentTCPListener.start()
        let log = LogRecorder()
        let shared = makeRedisCache(
            RedisConfiguration(port: silent.port, connectTimeout: .milliseconds(100), commandTimeout: .milliseconds(100)),
            logger: log)
        let manager = try makeManager("local", shared: shared)
        let (url, _) = try serve("testjfif_256.png")

        let clock = ContinuousClock()
        let start = clock.now
        let loaded = try await manager.image(for: url, options: .waitStoreCache)
        let elapsed = clock.now - start
        try await silent.stop()

        XCTAssertEqual(loaded.source, .network)
        XCTAssertEqual(loaded.image.pixelWidth, 256)
        // The query's GET and the store's SET each wait at most connect + command timeouts
        // (0.4 s in all); without them the silent server would hold the load for ever. The bound
        // leaves a loaded machine room for the download and decode around them.
        XCTAssertLessThan(elapsed, .seconds(10), "bounded by the timeouts, not hung")
        XCTAssertGreaterThanOrEqual(shared.errors, 2)
        XCTAssertEqual(log.messages(at: .warning).count, 1)
    }
}
