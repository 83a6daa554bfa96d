import Foundation

/// What one load does with the caches, the failed-URL list and the download, decided in one
/// place from its options and its context's settings: every stage of ``ImageManager`` asks
/// this value rather than working the options out again.
///
/// It is built before anything else of a load, so that a memory hit is decided from it
/// without a request: it costs a few flags.
public struct LoadPolicy: Sendable {
    /// The options, as given.
    let options: WebImageOptions
    /// The cache tiers looked in: the context's, else all of them (none with `fromLoaderOnly`).
    public let queryCacheType: ImageCacheType
    /// The tiers the delivered image is stored in: the context's, else all of them (memory
    /// only with `cacheMemoryOnly`).
    public let storeCacheType: ImageCacheType
    /// The tiers the original bytes are stored in when a transformer changed the image or it
    /// was decoded as a thumbnail: the context's, else the disk.
    public let originalStoreCacheType: ImageCacheType
    /// The tiers an original is looked for in when the delivered image's key misses: the
    /// context's, else the disk (SDWebImage's `originalQueryCacheType`).
    public let originalQueryCacheType: ImageCacheType
    /// Whether only the first frame of an animation is wanted: `decodeFirstFrameOnly`, or the
    /// context's decode options.
    public let firstFrameOnly: Bool
    /// Whether identical concurrent loads may share their work: not when the context carries
    /// closures whose effect cannot be compared (request and response modifiers, a decryptor,
    /// a cache serializer).
    let sharesWork: Bool

    /// What a context's settings decide of a load, worked out once per context (its
    /// ``ImageContext`` box) rather than once per load: a load only lays its options over it.
    struct ContextPart: Sendable {
        let queryCacheType: ImageCacheType?
        let storeCacheType: ImageCacheType?
        let originalStoreCacheType: ImageCacheType
        let originalQueryCacheType: ImageCacheType
        let firstFrameOnly: Bool
        let sharesWork: Bool

        /// The part `settings` decide.
        init(_ settings: ImageContext.Settings) {
            queryCacheType = settings.queryCacheType
            storeCacheType = settings.storeCacheType
            originalStoreCacheType = settings.originalStoreCacheType ?? .disk
            originalQueryCacheType = settings.originalQueryCacheType ?? .disk
            firstFrameOnly = settings.decodeOptions?.firstFrameOnly == true
            sharesWork = settings.requestModifier == nil && settings.responseModifier == nil && settings.decryptor == nil
                && settings.cacheSerializer == nil
        }
    }

    /// The policy of a load with `options` in a context whose settings decide `context`.
    init(options: WebImageOptions, context: ContextPart) {
        self.options = options
        queryCacheType = context.queryCacheType ?? (options.contains(.fromLoaderOnly) ? .none : .all)
        storeCacheType = context.storeCacheType ?? (options.contains(.cacheMemoryOnly) ? .memory : .all)
        originalStoreCacheType = context.originalStoreCacheType
        originalQueryCacheType = context.originalQueryCacheType
        firstFrameOnly = options.contains(.decodeFirstFrameOnly) || context.firstFrameOnly
        sharesWork = context.sharesWork
    }

    /// Where the download goes in the loader's queue.
    public var priority: DownloadPriority {
        options.contains(.highPriority) ? .high : options.contains(.lowPriority) ? .low : .normal
    }

    /// Whether a memory hit is the whole answer: the load looks in memory and wants neither
    /// the disk bytes along with the image nor a revalidation.
    var answersByMemoryHit: Bool {
        queryCacheType.includesMemory && options.isDisjoint(with: [.queryMemoryData, .refreshCached])
    }

    /// Whether a cache hit is answered and then revalidated with the server (`refreshCached`).
    var revalidates: Bool { options.contains(.refreshCached) }

    /// Whether the load stops before the loader (`fromCacheOnly`).
    var cacheOnly: Bool { options.contains(.fromCacheOnly) }

    /// Whether URLs on the failed-URL list are tried again (`retryFailed`): the load is not
    /// refused, and its success takes the URL off the list.
    var retriesFailedURLs: Bool { options.contains(.retryFailed) }

    /// Whether the load waits for its disk stores (`waitStoreCache`) rather than leaving them
    /// to the background.
    var waitsForDiskStore: Bool { options.contains(.waitStoreCache) }

    /// Whether the transformer applies to animations too (`transformAnimatedImage`).
    var transformsAnimations: Bool { options.contains(.transformAnimatedImage) }

    /// Whether a disk hit is read and decoded on the calling thread, before a task exists
    /// (`queryDiskDataSync`, SDWebImage's synchronous disk query): not under `refreshCached`,
    /// which revalidates a hit.
    var answersDiskHitNow: Bool {
        options.contains(.queryDiskDataSync) && !revalidates && queryCacheType.includesDisk
    }

    /// How the cache is asked for the delivered image, decoded with `decodeOptions`.
    func imageQuery(decodeOptions: ImageDecodeOptions) -> ImageCacheQueryOptions {
        ImageCacheQueryOptions(
            cacheType: queryCacheType, decodeOptions: decodeOptions,
            queryMemoryData: options.contains(.queryMemoryData), queryDiskDataSync: options.contains(.queryDiskDataSync),
            storesDiskHitsInMemory: storeCacheType.includesMemory)
    }

    /// How the cache of originals is asked for the original, decoded with `decodeOptions`.
    func originalQuery(decodeOptions: ImageDecodeOptions) -> ImageCacheQueryOptions {
        ImageCacheQueryOptions(cacheType: originalQueryCacheType, decodeOptions: decodeOptions,
                               queryDiskDataSync: options.contains(.queryDiskDataSync))
    }

    /// What makes two concurrent loads the same work, so that they share the cache query, the
    /// download, the decode, the transform and the store. The priority is part of it: a more
    /// urgent load does not wait in a less urgent one's place; it runs its own stages, and the
    /// loader gives their shared download the most urgent priority.
    struct WorkKey: Hashable, Sendable {
        let image: String
        let decodeOptions: ImageDecodeOptions
        let options: UInt32
        let cacheTypes: [ImageCacheType]
        let parts: [ObjectIdentifier]
    }

    /// The work key of `request`; nil when its work is not shared (see ``sharesWork``) or its
    /// loader is not an object, whose identity could say it is the same loader.
    static func workKey(of request: ImageRequest) -> WorkKey? {
        let policy = request.policy
        guard policy.sharesWork, let loader = identity(of: request.loader) else { return nil }
        return WorkKey(
            image: request.keys.image, decodeOptions: request.decodeOptions,
            options: policy.options.subtracting(.deliveryOnly).rawValue,
            cacheTypes: [policy.queryCacheType, policy.storeCacheType, policy.originalStoreCacheType],
            parts: [ObjectIdentifier(request.cache), loader, ObjectIdentifier(request.coders)])
    }

    /// The identity of `value` when it is a class instance; nil for a value type.
    private static func identity(of value: Any) -> ObjectIdentifier? {
        type(of: value) is AnyClass ? ObjectIdentifier(value as AnyObject) : nil
    }
}

extension WebImageOptions {
    /// Options that change how a result is delivered to one caller, not the work that makes it.
    static let deliveryOnly: WebImageOptions = [
        .delayPlaceholder, .avoidAutoSetImage, .avoidAutoCancelImage, .forceTransition, .continueInBackground,
        .queryMemoryDataSync,
    ]
}
