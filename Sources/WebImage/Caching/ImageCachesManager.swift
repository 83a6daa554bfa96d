import Foundation

/// A chain of caches answering as one (SDWebImage's `SDImageCachesManager`): for example a
/// local ``ImageCache`` in front of a tier shared between processes.
///
/// Order: the cache added last has the highest priority and is asked first, as in SDWebImage
/// (whose `caches` array is a priority queue with the highest priority last) and as in
/// ``ImageCoders`` and ``ImageLoaders``. So `ImageCachesManager(caches: [shared, local])` asks
/// `local` first, and a cache you ``add(_:)`` goes in front. Policies say which caches a query
/// asks and a store writes. Thread-safe.
public final class ImageCachesManager: ImageCaching {
    /// Which caches a query asks, and how.
    public enum QueryPolicy: Sendable {
        /// Only the highest-priority cache: the one added last.
        case highestOnly
        /// Only the lowest-priority cache: the one added first.
        case lowestOnly
        /// Each cache, highest priority first, until one hits.
        case serial
        /// All caches at once; the highest-priority hit wins.
        case concurrent
    }

    /// Which caches a store writes.
    public enum StorePolicy: Sendable {
        /// Only the highest-priority cache: the one added last.
        case highestOnly
        /// Only the lowest-priority cache: the one added first.
        case lowestOnly
        /// Every cache.
        case all
    }

    /// How queries are answered; `.serial` by default.
    public let queryPolicy: QueryPolicy
    /// Where stores go; `.highestOnly` by default.
    public let storePolicy: StorePolicy

    private let registry: Registry<any ImageCaching>

    /// A chain over `caches`, as if added in order: the last one has the highest priority.
    public init(caches: [any ImageCaching], queryPolicy: QueryPolicy = .serial, storePolicy: StorePolicy = .highestOnly) {
        registry = Registry(caches)
        self.queryPolicy = queryPolicy
        self.storePolicy = storePolicy
    }

    /// The caches in the order they are asked: the highest priority (the most recently added) first.
    public var caches: [any ImageCaching] {
        registry.all
    }

    /// Adds `cache` with the highest priority (SDWebImage's `addCache:`).
    public func add(_ cache: any ImageCaching) {
        registry.add(cache)
    }

    /// Removes every cache of type `type`.
    public func remove<C: ImageCaching>(_ type: C.Type) {
        registry.remove(type)
    }

    private var queried: [any ImageCaching] {
        switch queryPolicy {
        case .highestOnly: Array(caches.prefix(1))
        case .lowestOnly: Array(caches.suffix(1))
        case .serial, .concurrent: caches
        }
    }

    private var stored: [any ImageCaching] {
        switch storePolicy {
        case .highestOnly: Array(caches.prefix(1))
        case .lowestOnly: Array(caches.suffix(1))
        case .all: caches
        }
    }

    public func imageFromMemory(forKey key: String) -> Image? {
        for cache in queried {
            if let image = cache.imageFromMemory(forKey: key) { return image }
        }
        return nil
    }

    /// Asks the caches as ``queryPolicy`` says. A hit in a lower cache is copied into the
    /// higher ones that missed before the answer returns (a shared tier's hit lands in the local
    /// memory and disk), so the next query stops at the top.
    public func query(forKey key: String, options: ImageCacheQueryOptions) async throws -> ImageCacheQueryResult {
        let caches = queried
        if queryPolicy == .concurrent {
            let results = try await withThrowingTaskGroup(of: (Int, ImageCacheQueryResult).self) { group in
                for (rank, cache) in caches.enumerated() {
                    group.addTask { (rank, try await cache.query(forKey: key, options: options)) }
                }
                return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
            }
            guard let (rank, hit) = results.sorted(by: { $0.key < $1.key }).first(where: { $0.value.image != nil }) else {
                return .miss
            }
            await writeBack(hit, into: caches.prefix(rank), key: key, options: options)
            return hit
        }
        for (rank, cache) in caches.enumerated() {
            let result = try await cache.query(forKey: key, options: options)
            guard result.image != nil else { continue }
            await writeBack(result, into: caches.prefix(rank), key: key, options: options)
            return result
        }
        return .miss
    }

    /// Stores `hit` into `caches`, the higher ones that missed, in the tiers the query asked:
    /// its bytes, and its image in memory too unless it was decoded as a thumbnail (which `key`
    /// must not name). A cache that cannot take it is left as it is: the hit is in hand.
    private func writeBack(_ hit: ImageCacheQueryResult, into caches: ArraySlice<any ImageCaching>, key: String,
                           options: ImageCacheQueryOptions) async {
        let image = options.decodeOptions.thumbnailPixelSize == nil ? hit.image : nil
        guard image != nil || hit.data != nil else { return }
        let tiers = image == nil ? ImageCacheType.disk : options.cacheType
        for cache in caches {
            try? await cache.store(image, data: hit.data, forKey: key, to: tiers, serializer: nil)
        }
    }

    /// The first bytes a queried cache holds for `key`, asking the caches ``queryPolicy``
    /// names one at a time, highest priority first; copied into the disk tiers of the higher
    /// caches that missed before they return, as ``query(forKey:options:)`` does.
    public func diskImageData(forKey key: String) async -> Data? {
        let caches = queried
        for (rank, cache) in caches.enumerated() {
            guard let data = await cache.diskImageData(forKey: key) else { continue }
            for higher in caches.prefix(rank) {
                try? await higher.store(nil, data: data, forKey: key, to: .disk, serializer: nil)
            }
            return data
        }
        return nil
    }

    /// The bytes and validators of the first queried cache holding `key`, highest priority
    /// first; copied, validators with them, into the higher caches that missed before they
    /// return (a result found in object storage lands in Redis with the time it was made).
    public func diskImageDataAndValidators(forKey key: String) async -> (data: Data, validators: HTTPValidators?)? {
        let caches = queried
        for (rank, cache) in caches.enumerated() {
            guard let found = await cache.diskImageDataAndValidators(forKey: key) else { continue }
            for higher in caches.prefix(rank) {
                await higher.storeData(found.data, validators: found.validators, forKey: key)
            }
            return found
        }
        return nil
    }

    /// Stores `data` and `validators` in every cache ``storePolicy`` names.
    public func storeData(_ data: Data, validators: HTTPValidators?, forKey key: String) async {
        for cache in stored { await cache.storeData(data, validators: validators, forKey: key) }
    }

    public func store(_ image: Image?, data: Data?, forKey key: String, to cacheType: ImageCacheType,
                      serializer: ImageCacheSerializer?) async throws {
        for cache in stored {
            try await cache.store(image, data: data, forKey: key, to: cacheType, serializer: serializer)
        }
    }

    public func remove(forKey key: String, from cacheType: ImageCacheType) async {
        for cache in caches { await cache.remove(forKey: key, from: cacheType) }
    }

    public func containsImage(forKey key: String, in cacheType: ImageCacheType) async -> ImageCacheType {
        for cache in queried {
            let found = await cache.containsImage(forKey: key, in: cacheType)
            if found != .none { return found }
        }
        return .none
    }

    public func clear(_ cacheType: ImageCacheType) async {
        for cache in caches { await cache.clear(cacheType) }
    }

    public func validators(forKey key: String) async -> HTTPValidators? {
        for cache in queried {
            if let found = await cache.validators(forKey: key) { return found }
        }
        return nil
    }

    public func setValidators(_ validators: HTTPValidators?, forKey key: String) async {
        for cache in stored { await cache.setValidators(validators, forKey: key) }
    }
}
