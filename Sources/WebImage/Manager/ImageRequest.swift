import Foundation
import Logging

/// One load, decided once: SDWebImage's URL + options + context, resolved against a manager's
/// defaults (its cache, loader, coders and transformer) into the keys, the decode options and
/// the cache tiers every stage uses.
///
/// ``ImageManager/request(for:options:context:)`` builds it; every entry point (async, events,
/// callbacks, the target binding, the prefetcher) builds one per load and passes it down, so
/// no stage works out again what the request already says.
public struct ImageRequest: Sendable {
    /// The URL to load.
    public let url: URL
    /// The options, as given.
    public let options: WebImageOptions
    /// The context, as given.
    public let context: ImageContext
    /// The keys the image and its original bytes are cached under.
    public let keys: ImageCacheKeys
    /// How loaded bytes are decoded: the context's options with the scale (from the context or
    /// the URL's `@2x`/`@3x`), and the scale-down limit and first-frame-only flag of the options.
    public let decodeOptions: ImageDecodeOptions
    /// The cache tiers looked in: the context's, else all of them (none with `fromLoaderOnly`).
    public let queryCacheType: ImageCacheType
    /// The tiers the delivered image is stored in: the context's, else all of them (memory
    /// only with `cacheMemoryOnly`).
    public let storeCacheType: ImageCacheType
    /// The tiers the original bytes are stored in when a transformer changed the image: the
    /// context's, else the disk.
    public let originalStoreCacheType: ImageCacheType
    /// Where the download goes in the loader's queue.
    public let priority: DownloadPriority

    let cache: any ImageCaching
    let loader: any ImageLoader
    let coders: ImageCoders
    let transformer: (any ImageTransformer)?
    let logger: Logger

    init(url: URL, options: WebImageOptions, context: ImageContext, manager: ImageManager) {
        self.url = url
        self.options = options
        self.context = context
        cache = context.imageCache ?? manager.imageCache
        loader = context.imageLoader ?? manager.imageLoader
        coders = context.coders ?? manager.coders
        transformer = context.transformer ?? manager.transformer
        logger = manager.logger
        keys = ImageCacheKeys(url: url, filter: context.cacheKeyFilter, decodeOptions: context.decodeOptions,
                              transformer: transformer)
        var decode = context.decodeOptions ?? ImageDecodeOptions()
        decode.scaleFactor = context.imageScaleFactor ?? CacheKey.scaleFactor(of: url.absoluteString)
        if options.contains(.scaleDownLargeImages) && decode.scaleDownLimitBytes == nil {
            decode.scaleDownLimitBytes = manager.scaleDownLimitBytes
        }
        if options.contains(.decodeFirstFrameOnly) { decode.firstFrameOnly = true }
        decodeOptions = decode
        queryCacheType = context.queryCacheType ?? (options.contains(.fromLoaderOnly) ? .none : .all)
        storeCacheType = context.storeCacheType ?? (options.contains(.cacheMemoryOnly) ? .memory : .all)
        originalStoreCacheType = context.originalStoreCacheType ?? .disk
        priority = options.contains(.highPriority) ? .high : options.contains(.lowPriority) ? .low : .normal
    }

    /// Whether a URL on the failed-URL list is tried again (`retryFailed`).
    var retriesFailedURL: Bool { options.contains(.retryFailed) }

    /// Whether a memory hit is the whole answer: the load looks in memory and wants neither the
    /// disk bytes along with the image nor a revalidation.
    var isAnsweredByMemoryHit: Bool {
        queryCacheType.includesMemory && options.isDisjoint(with: [.queryMemoryData, .refreshCached])
    }

    /// What makes two concurrent loads the same work, so that they share the cache query, the
    /// download, the decode, the transform and the store; nil when the request carries closures
    /// whose effect cannot be compared (request and response modifiers, a decryptor, a cache
    /// serializer), or a cache, loader or coders that are not objects. The priority is part of
    /// it: a more urgent load does not wait in a less urgent one's place; it runs its own
    /// stages, and the loader gives their shared download the most urgent priority.
    var workKey: WorkKey? {
        guard context.requestModifier == nil, context.responseModifier == nil, context.decryptor == nil,
              context.cacheSerializer == nil,
              let cache = Self.identity(of: cache), let loader = Self.identity(of: loader)
        else { return nil }
        return WorkKey(
            image: keys.image, decodeOptions: decodeOptions, options: options.subtracting(.deliveryOnly).rawValue,
            cacheTypes: [queryCacheType, storeCacheType, originalStoreCacheType],
            parts: [cache, loader, ObjectIdentifier(coders)])
    }

    /// The identity of `value` when it is a class instance; nil for a value type.
    private static func identity(of value: Any) -> ObjectIdentifier? {
        type(of: value) is AnyClass ? ObjectIdentifier(value as AnyObject) : nil
    }

    /// See ``workKey``.
    struct WorkKey: Hashable, Sendable {
        let image: String
        let decodeOptions: ImageDecodeOptions
        let options: UInt32
        let cacheTypes: [ImageCacheType]
        let parts: [ObjectIdentifier]
    }
}

extension WebImageOptions {
    /// Options that change how a result is delivered to one caller, not the work that makes it.
    static let deliveryOnly: WebImageOptions = [
        .delayPlaceholder, .avoidAutoSetImage, .avoidAutoCancelImage, .forceTransition, .continueInBackground,
        .queryMemoryDataSync,
    ]
}
