import Foundation
import MetricsTestKit
import WebImage
import WebImageRedis
import WebImageTestSupport
import XCTest

/// What the Redis tier reports through swift-metrics, read from a test factory of its own.
final class RedisMetricsTests: RedisTestCase {
    private func makeCache(_ configuration: RedisConfiguration? = nil, metrics: TestMetrics) -> RedisImageCache {
        RedisImageCache(client: makeClient(configuration), coders: Self.coders, logger: LogRecorder().logger,
                        metricsFactory: metrics)
    }

    func testHitsMissesAndTheLatencyOfEachOperationAreReported() async throws {
        let metrics = TestMetrics()
        let cache = makeCache(metrics: metrics)
        let data = try Fixtures.benchData("testjfif_256.png")

        let missing = await cache.diskImageData(forKey: "a")
        try await cache.store(nil, data: data, forKey: "a", to: .disk, serializer: nil)
        let bytes = await cache.diskImageData(forKey: "a")
        let decoded = try await cache.query(forKey: "a", options: ImageCacheQueryOptions())

        XCTAssertNil(missing)
        XCTAssertEqual(bytes, data, "the bytes as stored, not decoded")
        XCTAssertEqual(decoded.image?.pixelWidth, 256)
        XCTAssertEqual(try metrics.expectCounter(RedisImageCache.hitsMetric).totalValue, 2)
        XCTAssertEqual(try metrics.expectCounter(RedisImageCache.missesMetric).totalValue, 1)
        XCTAssertEqual(try metrics.expectCounter(RedisImageCache.errorsMetric).totalValue, 0)
        XCTAssertEqual([cache.hits, cache.misses, cache.errors], [2, 1, 0], "the counters the cache keeps agree")
        let gets = try metrics.expectTimer(RedisImageCache.durationMetric, [("operation", "GET")]).values
        let sets = try metrics.expectTimer(RedisImageCache.durationMetric, [("operation", "SET")]).values
        XCTAssertEqual([gets.count, sets.count], [3, 1])
        XCTAssertTrue((gets + sets).allSatisfy { $0 > 0 && $0 < 5_000_000_000 }, "nanoseconds, under the timeouts: \(gets + sets)")
    }

    func testFailuresAreCountedAsErrorsAndTimed() async throws {
        let metrics = TestMetrics()
        let closed = try await LoopbackPort.free()
        let cache = makeCache(RedisConfiguration(port: closed, retryInterval: .zero), metrics: metrics)

        let found = await cache.diskImageData(forKey: "a")
        try await cache.store(nil, data: Data("bytes".utf8), forKey: "a", to: .disk, serializer: nil)
        await cache.remove(forKey: "a", from: .disk)

        XCTAssertNil(found)
        XCTAssertEqual(try metrics.expectCounter(RedisImageCache.errorsMetric).totalValue, 3)
        XCTAssertEqual(try metrics.expectCounter(RedisImageCache.hitsMetric).totalValue, 0)
        XCTAssertEqual(try metrics.expectCounter(RedisImageCache.missesMetric).totalValue, 0, "a failure is no miss")
        for operation in ["GET", "SET", "DEL"] {
            XCTAssertEqual(try metrics.expectTimer(RedisImageCache.durationMetric, [("operation", operation)]).values.count, 1,
                           operation)
        }
    }
}
