import CoreMetrics
import Foundation
import Locking
import Logging
import NIOCore
import NIOFoundationCompat
import NIOPosix
import WebImage

/// A cache tier in Redis, shared by every process that points at the same server: the tier
/// below the local disk in an ``ImageCachesManager``, so that instances behind a load balancer
/// fetch and process each image once between them.
///
/// It holds what the disk cache holds, under the same keys (after ``Configuration/namespace``):
/// the original bytes, or a processed result's encoding, decoded on read with ``coders`` on
/// NIO's blocking thread pool, off the caller's task. It
/// answers for the disk tier (`.disk` in ``ImageCacheType``), has no memory tier, and keeps
/// HTTP validators only when ``Configuration/keepsValidators`` says so. Entries expire after ``Configuration/timeToLive``; larger than
/// ``Configuration/maximumEntryBytes`` they are not stored.
///
/// Fail-open: when Redis is down, slow or answers errors, a query misses and a store, removal
/// or clear does nothing; nothing is thrown, one warning is logged per outage (of the client:
/// caches sharing one log it once), ``errors`` counts, and the client reconnects by itself.
///
/// Metrics, through swift-metrics: ``hitsMetric``, ``missesMetric`` and ``errorsMetric``
/// counters and the ``durationMetric`` timer.
public final class RedisImageCache: ImageCaching {
    /// The connection to Redis.
    public let client: RedisClient
    /// Namespace, time to live, size limit.
    public let configuration: Configuration
    /// Decode what Redis holds, and encode images stored without bytes.
    public let coders: ImageCoders
    /// Receives one warning per outage and one notice when Redis answers again.
    public let logger: Logger
    private let metrics: RedisCacheMetrics
    private let hitCount = Atomic<Int>(0)
    private let missCount = Atomic<Int>(0)
    private let errorCount = Atomic<Int>(0)

    /// A tier over `client`.
    /// - Parameters:
    ///   - client: the connection to Redis, with its timeouts.
    ///   - configuration: namespace, time to live, size limit.
    ///   - coders: ``ImageCoders/shared`` by default.
    ///   - logger: `WebImage.RedisImageCache` by default.
    ///   - metricsFactory: where the metrics go; the factory `MetricsSystem.bootstrap` set
    ///     by default (read now: bootstrap first).
    public init(client: RedisClient, configuration: Configuration = Configuration(), coders: ImageCoders = .shared,
                logger: Logger = Logger(label: "WebImage.RedisImageCache"),
                metricsFactory: any MetricsFactory = MetricsSystem.factory) {
        self.client = client
        self.configuration = configuration
        self.coders = coders
        self.logger = logger
        metrics = RedisCacheMetrics(factory: metricsFactory)
    }

    /// Queries Redis answered with an entry that decoded, and reads of bytes it answered.
    public var hits: Int { hitCount.load(ordering: .relaxed) }
    /// Queries Redis answered without an entry (or with one that no longer decodes).
    public var misses: Int { missCount.load(ordering: .relaxed) }
    /// Operations that failed because Redis was down, slow or answered an error.
    public var errors: Int { errorCount.load(ordering: .relaxed) }

    /// The Redis key for the cache key `key`.
    public func redisKey(forKey key: String) -> String { configuration.namespace + key }

    /// The Redis key of the validators kept with the entry for `key`: its Redis key, a NUL
    /// (which no cache key holds, so that it never names an entry) and `validators`; under the
    /// namespace, so that ``clear(_:)`` removes it too.
    public func validatorsKey(forKey key: String) -> String { redisKey(forKey: key) + "\u{0}validators" }

    /// Always nil: this tier keeps nothing in memory.
    public func imageFromMemory(forKey key: String) -> Image? { nil }

    public func query(forKey key: String, options: ImageCacheQueryOptions) async throws -> ImageCacheQueryResult {
        guard options.cacheType.includesDisk else { return .miss }
        try Task.checkCancellation()
        guard let data = await read(key) else { return .miss }
        let coders = coders, decodeOptions = options.decodeOptions
        guard let image = try? await NIOThreadPool.singleton.runIfActive({ try coders.decode(data, options: decodeOptions) })
        else {
            // Bytes that no longer decode are deleted, and the query misses rather than failing.
            await remove(forKey: key, from: .disk)
            countMiss()
            return .miss
        }
        countHit()
        return ImageCacheQueryResult(image: image, data: data, cacheType: .disk)
    }

    /// The bytes Redis holds for `key`, not decoded: one `GET`. Nil on a miss or a failure.
    public func diskImageData(forKey key: String) async -> Data? {
        guard let data = await read(key) else { return nil }
        countHit()
        return data
    }

    /// The bytes and the validators kept beside them in one `MGET` when
    /// ``Configuration/keepsValidators`` is on (the bytes alone otherwise). Nil on a miss or a failure.
    public func diskImageDataAndValidators(forKey key: String) async -> (data: Data, validators: HTTPValidators?)? {
        guard configuration.keepsValidators else { return await diskImageData(forKey: key).map { ($0, nil) } }
        let keys = [redisKey(forKey: key), validatorsKey(forKey: key)]
        guard let found = await attempt(.get, { try await $0.client.get(keys) }) else { return nil }
        guard let bytes = found[0] else {
            countMiss()
            return nil
        }
        countHit()
        return (Data(buffer: bytes), found[1].flatMap(Self.validators(from:)))
    }

    /// The bytes under `key`, or nil (counted as a miss when Redis answered without any).
    private func read(_ key: String) async -> Data? {
        guard let found = await attempt(.get, { try await $0.client.get($0.redisKey(forKey: key)) }) else { return nil }
        guard let buffer = found else {
            countMiss()
            return nil
        }
        return Data(buffer: buffer)
    }

    private func countHit() {
        hitCount.add(1, ordering: .relaxed)
        metrics.hits.increment()
    }

    private func countMiss() {
        missCount.add(1, ordering: .relaxed)
        metrics.misses.increment()
    }

    /// Stores the bytes the disk tier would: the serializer's, else `data`, else an encoding.
    /// Encoding errors are thrown; Redis failures are not.
    public func store(_ image: Image?, data: Data?, forKey key: String, to cacheType: ImageCacheType,
                      serializer: ImageCacheSerializer?) async throws {
        guard cacheType.includesDisk,
              let bytes = try coders.cacheBytes(for: image, data: data, key: key, serializer: serializer),
              bytes.count <= configuration.maximumEntryBytes else { return }
        let ttl = configuration.timeToLive
        await attempt(.set) { try await $0.client.set($0.redisKey(forKey: key), to: ByteBuffer(data: bytes), expiringAfter: ttl) }
    }

    /// Deletes the entry for `key`, and the validators kept with it.
    public func remove(forKey key: String, from cacheType: ImageCacheType) async {
        guard cacheType.includesDisk else { return }
        let keys = [redisKey(forKey: key)] + (configuration.keepsValidators ? [validatorsKey(forKey: key)] : [])
        await attempt(.delete) { try await $0.client.delete(keys) }
    }

    public func containsImage(forKey key: String, in cacheType: ImageCacheType) async -> ImageCacheType {
        guard cacheType.includesDisk else { return .none }
        let exists = await attempt(.exists) { try await $0.client.exists($0.redisKey(forKey: key)) }
        return exists == true ? .disk : .none
    }

    /// Deletes every key under the namespace (and nothing else in the database).
    public func clear(_ cacheType: ImageCacheType) async {
        guard cacheType.includesDisk else { return }
        let pattern = Self.globEscaped(configuration.namespace) + "*"
        await attempt(.clear) { cache in
            let keys = try await cache.client.keys(matching: pattern)
            if !keys.isEmpty { try await cache.client.delete(keys) }
        }
    }

    /// The validators kept with the entry for `key` when ``Configuration/keepsValidators`` is
    /// on (one `GET`); nil otherwise, on a miss or a failure.
    public func validators(forKey key: String) async -> HTTPValidators? {
        guard configuration.keepsValidators,
              let found = await attempt(.get, { try await $0.client.get($0.validatorsKey(forKey: key)) }),
              let buffer = found else { return nil }
        return Self.validators(from: buffer)
    }

    /// Validators as ``setValidators(_:forKey:)`` keeps them (JSON); nil when they do not read.
    private static func validators(from buffer: ByteBuffer) -> HTTPValidators? {
        try? JSONDecoder().decode(HTTPValidators.self, from: Data(buffer: buffer))
    }

    /// Keeps `validators` with the entry for `key`, for the entries' time to live (nil deletes
    /// them), when ``Configuration/keepsValidators`` is on; does nothing otherwise.
    public func setValidators(_ validators: HTTPValidators?, forKey key: String) async {
        guard configuration.keepsValidators else { return }
        guard let validators, let json = try? JSONEncoder().encode(validators) else {
            await attempt(.delete) { try await $0.client.delete([$0.validatorsKey(forKey: key)]) }
            return
        }
        let ttl = configuration.timeToLive
        await attempt(.set) {
            try await $0.client.set($0.validatorsKey(forKey: key), to: ByteBuffer(data: json), expiringAfter: ttl)
        }
    }

    /// The result of `work`, or nil when Redis failed it (counted, and logged once per outage);
    /// timed either way.
    @discardableResult
    private func attempt<T: Sendable>(_ operation: RedisCacheOperation, _ work: (RedisImageCache) async throws -> T) async -> T? {
        let started = ContinuousClock.now
        defer { metrics.record(operation, took: started.duration(to: .now)) }
        do {
            let result = try await work(self)
            client.health.succeeded(logger: logger)
            return result
        } catch {
            errorCount.add(1, ordering: .relaxed)
            metrics.errors.increment()
            client.health.failed(error, operation: operation.rawValue, logger: logger)
            return nil
        }
    }

    /// `text` with the characters special to Redis's glob patterns escaped.
    private static func globEscaped(_ text: String) -> String {
        text.reduce(into: "") { escaped, character in
            if "*?[]\\".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
    }
}
