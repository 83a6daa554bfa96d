import Foundation
import NIOCore
import WebImage
import WebImageRedis
import WebImageTestSupport
import XCTest

/// The Redis tier against a real `redis-server`: what it stores, for how long, and what it refuses.
final class RedisImageCacheTests: RedisTestCase {
    func testStoredBytesComeBackAndDecodeUnderTheNamespacedKey() async throws {
        let cache = makeRedisCache(cache: .init(namespace: "test:"))
        let data = try Fixtures.benchData("testjfif_256.png")
        try await cache.store(nil, data: data, forKey: "https://example.com/a.png", to: .disk, serializer: nil)

        let raw = try await makeClient().get("test:https://example.com/a.png")
        XCTAssertEqual(raw.map { Data(buffer: $0) }, data, "stored as the original bytes under namespace + key")
        let found = try await cache.query(forKey: "https://example.com/a.png", options: ImageCacheQueryOptions())
        XCTAssertEqual(found.cacheType, .disk)
        XCTAssertEqual(found.data, data)
        XCTAssertEqual(found.image?.pixelWidth, 256)
        XCTAssertNil(cache.imageFromMemory(forKey: "https://example.com/a.png"), "no memory tier")
        XCTAssertEqual([cache.hits, cache.misses, cache.errors], [1, 0, 0])
    }

    func testAnImageWithoutBytesIsStoredEncoded() async throws {
        let cache = makeRedisCache()
        let image = try Self.coders.decode(Fixtures.benchData("testjfif_256.png"))
        try await cache.store(image, data: nil, forKey: "processed", to: .disk, serializer: nil)
        let found = try await cache.query(forKey: "processed", options: ImageCacheQueryOptions())
        XCTAssertEqual(found.image?.pixelWidth, 256)
        XCTAssertEqual(found.data.map(ImageFormat.init(detecting:)), .png, "encoded in the source format")
    }

    func testValidatorsAreKeptBesideTheEntryOnlyWhenConfiguredAndGoWithIt() async throws {
        let client = makeClient()
        let validators = HTTPValidators(etag: nil, lastModified: "Mon, 23 Nov 2026 17:00:00 GMT")
        let plain = makeRedisCache(cache: .init(namespace: "plain:"))
        try await plain.store(nil, data: Data("bytes".utf8), forKey: "k", to: .disk, serializer: nil)
        await plain.setValidators(validators, forKey: "k")
        let plainFound = await plain.validators(forKey: "k")
        XCTAssertNil(plainFound, "off by default: validators stay with the local disk tier")
        let plainKeys = try await client.keys(matching: "plain:*")
        XCTAssertEqual(plainKeys, ["plain:k"])

        let keeping = makeRedisCache(cache: .init(namespace: "kept:", timeToLive: .seconds(60), keepsValidators: true))
        try await keeping.store(nil, data: Data("bytes".utf8), forKey: "k", to: .disk, serializer: nil)
        await keeping.setValidators(validators, forKey: "k")
        let found = await keeping.validators(forKey: "k")
        XCTAssertEqual(found, validators)
        let keptKeys = try await client.keys(matching: "kept:*")
        XCTAssertEqual(Set(keptKeys), ["kept:k", "kept:k\u{0}validators"])
        XCTAssertEqual(keeping.validatorsKey(forKey: "k"), "kept:k\u{0}validators")

        await keeping.remove(forKey: "k", from: .disk)
        let left = try await client.keys(matching: "kept:*")
        XCTAssertEqual(left, [], "removed with the entry")
        let gone = await keeping.validators(forKey: "k")
        XCTAssertNil(gone)
    }

    /// A shared result's bytes and the time it was made come back in one round trip: one
    /// `MGET`, no `GET`, as the server's own statistics count them.
    func testBytesAndValidatorsComeInOneMGET() async throws {
        let validators = HTTPValidators(etag: nil, lastModified: "Mon, 23 Nov 2026 17:00:00 GMT")
        let keeping = makeRedisCache(cache: .init(namespace: "kept:", keepsValidators: true))
        try await keeping.store(nil, data: Data("bytes".utf8), forKey: "k", to: .disk, serializer: nil)
        await keeping.setValidators(validators, forKey: "k")
        let before = try commandCalls()
        let both = await keeping.diskImageDataAndValidators(forKey: "k")
        let after = try commandCalls()
        XCTAssertEqual(both?.data, Data("bytes".utf8))
        XCTAssertEqual(both?.validators, validators)
        XCTAssertEqual(after["mget", default: 0] - before["mget", default: 0], 1)
        XCTAssertEqual(after["get", default: 0], before["get", default: 0])
        let missing = await keeping.diskImageDataAndValidators(forKey: "absent")
        XCTAssertNil(missing)

        let plain = makeRedisCache(cache: .init(namespace: "plain:"))
        try await plain.store(nil, data: Data("bytes".utf8), forKey: "k", to: .disk, serializer: nil)
        let bytesOnly = await plain.diskImageDataAndValidators(forKey: "k")
        XCTAssertEqual(bytesOnly?.data, Data("bytes".utf8))
        XCTAssertNil(bytesOnly?.validators, "off by default: no validators in Redis")
    }

    /// How many times the test's server has run each command (`INFO commandstats`, by `redis-cli`).
    private func commandCalls() throws -> [String: Int] {
        let info = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/redis-cli"),
                                        ["-p", "\(redis.port)", "INFO", "commandstats"])
        var calls: [String: Int] = [:]
        for line in info.output.split(whereSeparator: \.isNewline) where line.hasPrefix("cmdstat_") {
            // cmdstat_get:calls=3,usec=…
            let parts = line.dropFirst("cmdstat_".count).split(separator: ":", maxSplits: 1)
            guard parts.count == 2, let field = parts[1].split(separator: ",").first,
                  let count = Int(field.dropFirst("calls=".count)) else { continue }
            calls[String(parts[0])] = count
        }
        return calls
    }

    func testAMemoryOnlyStoreWritesNothing() async throws {
        let cache = makeRedisCache()
        try await cache.store(nil, data: Data("bytes".utf8), forKey: "k", to: .memory, serializer: nil)
        let contained = await cache.containsImage(forKey: "k", in: .all)
        XCTAssertEqual(contained, .none)
    }

    func testEntriesExpireAfterTheirTimeToLive() async throws {
        // Two seconds: the first look comes before the end however loaded the machine is; then
        // the test waits for the end, not for a guess at it.
        let timeToLive = Duration.seconds(2)
        let cache = makeRedisCache(cache: .init(timeToLive: timeToLive))
        let storing = ContinuousClock.now
        try await cache.store(nil, data: Data("bytes".utf8), forKey: "short", to: .disk, serializer: nil)
        let before = await cache.containsImage(forKey: "short", in: .disk)
        XCTAssertEqual(before, .disk)
        var after = before
        let deadline = ContinuousClock.now + .seconds(30)
        while after != .none, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            after = await cache.containsImage(forKey: "short", in: .disk)
        }
        XCTAssertEqual(after, .none, "expired")
        XCTAssertGreaterThanOrEqual(ContinuousClock.now - storing, timeToLive, "not before its time to live")
    }

    func testEntriesOverTheSizeLimitAreNotStored() async throws {
        let cache = makeRedisCache()
        XCTAssertEqual(cache.configuration.maximumEntryBytes, 1 << 20, "1 MiB by default")
        try await cache.store(nil, data: Data(count: 1 << 20), forKey: "at-limit", to: .disk, serializer: nil)
        try await cache.store(nil, data: Data(count: (1 << 20) + 1), forKey: "over-limit", to: .disk, serializer: nil)
        let atLimit = await cache.containsImage(forKey: "at-limit", in: .disk)
        let overLimit = await cache.containsImage(forKey: "over-limit", in: .disk)
        XCTAssertEqual(atLimit, .disk)
        XCTAssertEqual(overLimit, .none)
        let stored = try await makeClient().get(cache.redisKey(forKey: "at-limit"))
        XCTAssertEqual(stored?.readableBytes, 1 << 20, "a reply that arrives in many reads comes back whole")
    }

    func testAnErrorAnswerIsACountedMissWithOneWarning() async throws {
        let log = LogRecorder()
        let cache = makeRedisCache(RedisConfiguration(port: redis.port, database: 999), logger: log)
        try await cache.store(nil, data: Data("bytes".utf8), forKey: "k", to: .disk, serializer: nil)
        let found = try await cache.query(forKey: "k", options: ImageCacheQueryOptions())
        XCTAssertNil(found.image)
        XCTAssertEqual([cache.hits, cache.misses, cache.errors], [0, 0, 2], "SELECT 999 is refused: both operations fail")
        XCTAssertEqual(log.messages(at: .warning).count, 1)
        XCTAssertTrue(log.messages(at: .warning)[0].contains("SELECT 999"), log.messages(at: .warning)[0])
    }

    func testBytesThatNoLongerDecodeAreAMissAndDeleted() async throws {
        let cache = makeRedisCache()
        try await cache.store(nil, data: Data("not an image".utf8), forKey: "broken", to: .disk, serializer: nil)
        let found = try await cache.query(forKey: "broken", options: ImageCacheQueryOptions())
        XCTAssertNil(found.image)
        let contained = await cache.containsImage(forKey: "broken", in: .disk)
        XCTAssertEqual(contained, .none)
        XCTAssertEqual(cache.misses, 1)
    }

    func testRemoveAndClearTouchOnlyTheNamespace() async throws {
        let cache = makeRedisCache(cache: .init(namespace: "a*:"))
        let client = makeClient()
        try await client.set("other", to: ByteBuffer(string: "kept"), expiringAfter: .seconds(60))
        for key in ["1", "2", "3"] {
            try await cache.store(nil, data: Data(key.utf8), forKey: key, to: .disk, serializer: nil)
        }
        await cache.remove(forKey: "1", from: .disk)
        let removed = await cache.containsImage(forKey: "1", in: .disk)
        XCTAssertEqual(removed, .none)
        await cache.clear(.disk)
        let keys = try await client.keys(matching: "*")
        XCTAssertEqual(keys, ["other"])
    }
}
