import CoreMetrics
import Foundation
import Locking
import Logging
import WebImage

/// A cache tier in an S3-compatible bucket, shared by every instance that points at it: the
/// results tier below Redis (or below the local disk without Redis), so that instances make
/// each result once between them however long ago it was made.
///
/// Each entry is one object under ``prefix``, named by the SHA-256 of its cache key (a key of
/// any length makes a valid object name), holding the bytes with their content type, their MD5
/// as `ETag` (checked on read: a damaged copy is a miss) and the time the result was made
/// (`x-amz-meta-created`, given as the validators' `Last-Modified`). It answers for the disk
/// tier, has no memory tier, and expires nothing itself: give the bucket a lifecycle rule.
///
/// Writes go in the background: a store returns at once, and at most ``maxPendingBytes`` of
/// writes wait (more are dropped and counted). Fail-open: when the store is down, slow or
/// refuses, a read misses and a write is lost; nothing is thrown, one warning is logged per
/// outage, the store is left alone for a retry interval after each failure (so that requests
/// do not each wait out a deadline), and the counters ``hits``, ``misses``, ``writes``, ``errors`` and ``dropped`` say what
/// happened (also as the swift-metrics counters `webimage_object_storage_hits_total`,
/// `…_misses_total`, `…_writes_total`, `…_errors_total` and `…_dropped_writes_total`).
public final class ObjectStorageImageCache: ImageCaching {
    /// The connection to the store.
    public let client: ObjectStorageClient
    /// The bucket and the key prefix the entries are written under.
    public let prefix: ObjectLocation
    /// The most bytes of writes that may wait; past it new writes are dropped.
    public let maxPendingBytes: Int
    /// Decodes entries for ``query(forKey:options:)`` and encodes images stored without bytes.
    public let coders: ImageCoders
    /// Receives one warning per outage and one notice when the store answers again.
    public let logger: Logger
    private let counters: ObjectStorageCounters
    private let health: ObjectStorageHealth
    private let pendingWrites = ObjectStorageWrites()

    /// A tier in `prefix` (`s3://bucket/prefix`) through `client`, leaving the store alone for
    /// `retryInterval` after a failure (its requests miss at once meanwhile).
    public init(client: ObjectStorageClient, prefix: ObjectLocation, maxPendingBytes: Int = 64 << 20,
                retryInterval: Duration = .seconds(1), coders: ImageCoders = .shared, logger: Logger = Logger(label: "WebImage.ObjectStorageImageCache"),
                metricsFactory: any MetricsFactory = MetricsSystem.factory) {
        self.client = client
        self.prefix = prefix
        self.maxPendingBytes = maxPendingBytes
        self.coders = coders
        self.logger = logger
        counters = ObjectStorageCounters(factory: metricsFactory)
        health = ObjectStorageHealth(retryInterval: retryInterval)
    }

    /// Reads that found an entry.
    public var hits: Int { counters.count(of: .hit) }
    /// Reads that found none (or a damaged one).
    public var misses: Int { counters.count(of: .miss) }
    /// Entries written.
    public var writes: Int { counters.count(of: .write) }
    /// Requests that failed: the store down, slow or refusing.
    public var errors: Int { counters.count(of: .error) }
    /// Writes dropped because too many bytes were waiting.
    public var dropped: Int { counters.count(of: .dropped) }

    /// The object an entry for `key` is written at.
    public func location(forKey key: String) throws(ObjectStorageError) -> ObjectLocation {
        try prefix.appending(SigV4Signer.payloadHash(of: Data(key.utf8)))
    }

    /// Always nil: this tier keeps nothing in memory.
    public func imageFromMemory(forKey key: String) -> Image? { nil }

    public func query(forKey key: String, options: ImageCacheQueryOptions) async throws -> ImageCacheQueryResult {
        guard options.cacheType.includesDisk else { return .miss }
        try Task.checkCancellation()
        guard let found = await read(key), let image = try? coders.decode(found.data, options: options.decodeOptions) else {
            return .miss
        }
        return ImageCacheQueryResult(image: image, data: found.data, cacheType: .disk)
    }

    public func diskImageData(forKey key: String) async -> Data? {
        await read(key)?.data
    }

    /// The bytes, with the validators kept beside them: their `ETag` and the time they were made.
    public func diskImageDataAndValidators(forKey key: String) async -> (data: Data, validators: HTTPValidators?)? {
        await read(key).map { ($0.data, $0.validators) }
    }

    public func validators(forKey key: String) async -> HTTPValidators? {
        await read(key)?.validators
    }

    /// Validators are written with the bytes (``storeData(_:validators:forKey:)``), never alone.
    public func setValidators(_ validators: HTTPValidators?, forKey key: String) async {}

    /// Writes the bytes the disk tier would, in the background, without validators.
    public func store(_ image: Image?, data: Data?, forKey key: String, to cacheType: ImageCacheType,
                      serializer: ImageCacheSerializer?) async throws {
        guard cacheType.includesDisk, let bytes = try coders.cacheBytes(for: image, data: data, key: key, serializer: serializer)
        else { return }
        write(bytes, validators: nil, forKey: key)
    }

    /// Writes `data` with the time `validators` says it was made, in one `PUT`, in the background.
    public func storeData(_ data: Data, validators: HTTPValidators?, forKey key: String) async {
        write(data, validators: validators, forKey: key)
    }

    public func remove(forKey key: String, from cacheType: ImageCacheType) async {
        guard cacheType.includesDisk, let location = try? location(forKey: key) else { return }
        await attempt("delete") { try await $0.client.delete(location) }
    }

    public func containsImage(forKey key: String, in cacheType: ImageCacheType) async -> ImageCacheType {
        guard cacheType.includesDisk, let location = try? location(forKey: key),
              await attempt("head", { try await $0.client.exists(location) }) == true else { return .none }
        return .disk
    }

    /// Removes nothing: listing a shared bucket to empty it is the bucket's lifecycle rules'
    /// work, not a request's.
    public func clear(_ cacheType: ImageCacheType) async {}

    /// Waits until the writes queued so far have ended (for a server stopping, and tests).
    public func waitForWrites() async {
        await pendingWrites.waitUntilIdle()
    }

    /// The entry for `key`, when the store holds one whose bytes match its `ETag`.
    private func read(_ key: String) async -> (data: Data, validators: HTTPValidators?)? {
        guard let location = try? location(forKey: key) else { return nil }
        guard let found = await attempt("get", { try await $0.client.get(location) }) else { return nil }
        guard let object = found, object.etag.map({ $0 == "\"\(MD5.hex(object.data))\"" }) ?? true else {
            counters.increment(.miss)
            return nil
        }
        counters.increment(.hit)
        return (object.data, HTTPValidators(etag: object.etag, lastModified: object.metadata[Self.createdField]))
    }

    /// Queues the `PUT` of `data` for `key`, unless too many bytes wait already.
    private func write(_ data: Data, validators: HTTPValidators?, forKey key: String) {
        guard let location = try? location(forKey: key) else { return }
        let format = ImageFormat(detecting: data)
        let contentType = format == .undefined ? "application/octet-stream" : "image/\(format.rawValue)"
        let metadata = validators?.lastModified.map { [Self.createdField: $0] } ?? [:]
        let queued = pendingWrites.start(holding: data.count, limit: maxPendingBytes) { [self] in
            let written: Void? = await attempt("put") {
                try await $0.client.put(data, at: location, contentType: contentType, metadata: metadata)
            }
            if written != nil { counters.increment(.write) }
        }
        if !queued { counters.increment(.dropped) }
    }

    /// The metadata field holding the time the result was made, an HTTP date.
    static let createdField = "created"

    /// The result of `work`, or nil when the store failed it (counted, and logged once per
    /// outage) or is being left alone after a failure.
    @discardableResult
    private func attempt<T: Sendable>(_ operation: String, _ work: (ObjectStorageImageCache) async throws -> T) async -> T? {
        guard health.permitsRequest() else { return nil }
        do {
            let result = try await work(self)
            health.succeeded(logger: logger)
            return result
        } catch {
            counters.increment(.error)
            health.failed(error, operation: operation, logger: logger)
            return nil
        }
    }
}
