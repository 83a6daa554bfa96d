import Foundation

/// A chain of caches answering as one (SDWebImage's `SDImageCachesManager`): for example a
/// local ``ImageCache`` in front of a tier shared between processes.
///
/// The caches are ordered by priority, the first the highest. Policies say which caches a
/// query asks and a store writes.
public final class ImageCachesManager: ImageCaching {
    /// Which caches a query asks, and how.
    public enum QueryPolicy: Sendable {
        /// Only the first cache.
        case highestOnly
        /// Only the last cache.
        case lowestOnly
        /// Each cache in order until one hits.
        case serial
        /// All caches at once; the highest-priority hit wins.
        case concurrent
    }

    /// Which caches a store writes.
    public enum StorePolicy: Sendable {
        /// Only the first cache.
        case highestOnly
        /// Only the last cache.
        case lowestOnly
        /// Every cache.
        case all
    }

    /// The caches, highest priority first.
    public let caches: [any ImageCaching]
    /// How queries are answered; `.serial` by default.
    public let queryPolicy: QueryPolicy
    /// Where stores go; `.highestOnly` by default.
    public let storePolicy: StorePolicy

    /// A chain over `caches` (highest priority first).
    public init(caches: [any ImageCaching], queryPolicy: QueryPolicy = .serial, storePolicy: StorePolicy = .highestOnly) {
        self.caches = caches
        self.queryPolicy = queryPolicy
        self.storePolicy = storePolicy
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

    public func query(forKey key: String, options: ImageCacheQueryOptions) async throws -> ImageCacheQueryResult {
        if queryPolicy == .concurrent {
            let results = try await withThrowingTaskGroup(of: (Int, ImageCacheQueryResult).self) { group in
                for (rank, cache) in caches.enumerated() {
                    group.addTask { (rank, try await cache.query(forKey: key, options: options)) }
                }
                return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
            }
            return results.sorted { $0.key < $1.key }.first { $0.value.image != nil }?.value ?? .miss
        }
        for cache in queried {
            let result = try await cache.query(forKey: key, options: options)
            if result.image != nil { return result }
        }
        return .miss
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
