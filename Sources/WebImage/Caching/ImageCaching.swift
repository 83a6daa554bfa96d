import Foundation

/// What the manager needs of a cache (SDWebImage's `SDImageCache` protocol): implemented by
/// ``ImageCache`` and by the chain ``ImageCachesManager``, and by any tier of yours.
///
/// A cache is an object every load shares, so handing one along is a reference count, not a
/// copy.
public protocol ImageCaching: AnyObject, Sendable {
    /// The image for `key` from the memory tier, answered synchronously; nil on a miss or
    /// when the cache has no memory tier.
    func imageFromMemory(forKey key: String) -> Image?
    /// Looks `key` up in the tiers `options.cacheType` names. Throws `CancellationError` when
    /// the task is cancelled before the disk read starts.
    func query(forKey key: String, options: ImageCacheQueryOptions) async throws -> ImageCacheQueryResult
    /// Stores `image` (and its encoded bytes, when known) under `key` in the tiers `cacheType`
    /// names. Without bytes, the disk tier stores what `serializer` makes, or an encoding.
    func store(_ image: Image?, data: Data?, forKey key: String, to cacheType: ImageCacheType,
               serializer: ImageCacheSerializer?) async throws
    /// Removes `key` from the tiers `cacheType` names.
    func remove(forKey key: String, from cacheType: ImageCacheType) async
    /// The highest tier holding `key`: `.memory`, `.disk`, or `.none`.
    func containsImage(forKey key: String, in cacheType: ImageCacheType) async -> ImageCacheType
    /// Empties the tiers `cacheType` names.
    func clear(_ cacheType: ImageCacheType) async
    /// The HTTP validators kept with the entry for `key` (see ``HTTPValidators``).
    func validators(forKey key: String) async -> HTTPValidators?
    /// Keeps HTTP validators with the entry for `key`.
    func setValidators(_ validators: HTTPValidators?, forKey key: String) async
    /// The encoded bytes the disk tier (or a tier standing for it) holds for `key`, not decoded
    /// (SDWebImage's `diskImageDataQueryForKey:`): for callers that hand the bytes on as they
    /// are, such as an image server answering with a cached result. Nil on a miss.
    func diskImageData(forKey key: String) async -> Data?
    /// ``diskImageData(forKey:)`` and ``validators(forKey:)`` together, in one read where the
    /// tier can (a Redis tier asks for both with one `MGET`): for a server answering a cached
    /// result with the time it was made. Nil on a miss.
    func diskImageDataAndValidators(forKey key: String) async -> (data: Data, validators: HTTPValidators?)?
    /// The image for `key` from the disk tier, read and decoded on the calling thread
    /// (SDWebImage's `imageFromDiskCacheForKey:`), kept in memory as `options` say; nil on a
    /// miss, or from a cache that cannot read synchronously. What `queryDiskDataSync` loads
    /// from the callback API are answered with, before the call returns.
    func imageFromDisk(forKey key: String, options: ImageCacheQueryOptions) -> ImageCacheQueryResult?
    /// Stores encoded `data` in the disk tier (or a tier standing for it) with `validators`, as
    /// one entry where the tier can (an object store writes both in one `PUT`): for a server
    /// sharing a result with the time it was made. Failures are the tier's to swallow.
    func storeData(_ data: Data, validators: HTTPValidators?, forKey key: String) async
}

extension ImageCaching {
    /// Nil: a cache of yours (or a chain of caches, whose hits are written back to the tiers
    /// above asynchronously) answers through ``query(forKey:options:)``.
    public func imageFromDisk(forKey key: String, options: ImageCacheQueryOptions) -> ImageCacheQueryResult? {
        nil
    }
}

/// Decides the bytes a cache writes to disk for an image (SDWebImage's `cacheSerializer`):
/// given the image, the downloaded bytes (if any) and the key; nil writes nothing to disk.
public typealias ImageCacheSerializer = @Sendable (Image, Data?, String) -> Data?
