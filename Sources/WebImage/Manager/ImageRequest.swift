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
    /// The manager whose defaults fill in what the context leaves unset.
    public let manager: ImageManager
    /// Whether there is a URL to load: an empty one is ``WebImageError/invalidURL(_:)``.
    let hasURL: Bool

    /// Everything else is derived from the context and the manager when a stage asks, so that a
    /// memory hit pays for its key and nothing more.
    ///
    /// `urlString` is `url.absoluteString`, read once by the caller: Foundation builds the string
    /// anew on every call, and the memory-hit path before a request has read it already.
    init(url: URL, urlString: String, options: WebImageOptions, context: ImageContext, manager: ImageManager) {
        self.url = url
        self.options = options
        self.context = context
        self.manager = manager
        hasURL = !urlString.isEmpty
        keys = context.box.cacheKeys(for: url, urlString: urlString, defaultTransformerKey: manager.transformerKey)
    }

    /// How loaded bytes are decoded: the context's options with the scale (from the context or
    /// the URL's `@2x`/`@3x`), and the scale-down limit and first-frame-only flag of the options.
    public var decodeOptions: ImageDecodeOptions {
        var decode = context.box.settings.decodeOptions ?? ImageDecodeOptions()
        decode.scaleFactor = context.box.settings.imageScaleFactor ?? CacheKey.scaleFactor(of: keys.original)
        if options.contains(.scaleDownLargeImages) && decode.scaleDownLimitBytes == nil {
            decode.scaleDownLimitBytes = manager.scaleDownLimitBytes
        }
        decode.firstFrameOnly = wantsFirstFrameOnly
        return decode
    }

    /// Whether only the first frame of an animation is wanted: `decodeFirstFrameOnly`, or the
    /// context's decode options.
    var wantsFirstFrameOnly: Bool { context.box.wantsFirstFrameOnly(options) }

    /// Whether the delivered image is not the original's decode: it is decoded as a thumbnail
    /// or transformed, so it has keys of its own and the original bytes are not its bytes.
    var derivesFromOriginal: Bool { keys.image != keys.original }

    /// The cache tiers looked in: the context's, else all of them (none with `fromLoaderOnly`).
    public var queryCacheType: ImageCacheType { context.box.queryCacheType(options) }

    /// The tiers the delivered image is stored in: the context's, else all of them (memory
    /// only with `cacheMemoryOnly`).
    public var storeCacheType: ImageCacheType {
        context.box.settings.storeCacheType ?? (options.contains(.cacheMemoryOnly) ? .memory : .all)
    }

    /// The tiers the original bytes are stored in when a transformer changed the image: the
    /// context's, else the disk.
    public var originalStoreCacheType: ImageCacheType { context.box.settings.originalStoreCacheType ?? .disk }

    /// The tiers an original is looked for in when the delivered image's key misses: the
    /// context's, else the disk (SDWebImage's `originalQueryCacheType`). Only for a request
    /// whose image derives from its original.
    public var originalQueryCacheType: ImageCacheType { context.box.settings.originalQueryCacheType ?? .disk }

    /// Where the download goes in the loader's queue.
    public var priority: DownloadPriority {
        options.contains(.highPriority) ? .high : options.contains(.lowPriority) ? .low : .normal
    }

    /// The cache: the context's, else the manager's.
    var cache: any ImageCaching { context.box.settings.imageCache ?? manager.imageCache }
    /// The cache of originals: the context's `originalImageCache`, else ``cache``.
    var originalCache: any ImageCaching { context.box.settings.originalImageCache ?? cache }
    /// The loader: the context's, else the manager's.
    var loader: any ImageLoader { context.box.settings.imageLoader ?? manager.imageLoader }
    /// The coders: the context's, else the manager's.
    var coders: ImageCoders { context.box.settings.coders ?? manager.coders }
    /// The transformer: the context's, else the manager's.
    var transformer: (any ImageTransformer)? { context.box.settings.transformer ?? manager.transformer }
    /// Where failures that do not fail the load are reported.
    var logger: Logger { manager.logger }

    /// What makes two concurrent loads the same work, so that they share the cache query, the
    /// download, the decode, the transform and the store; nil when the request carries closures
    /// whose effect cannot be compared (request and response modifiers, a decryptor, a cache
    /// serializer), or a loader that is not an object. The priority is part of
    /// it: a more urgent load does not wait in a less urgent one's place; it runs its own
    /// stages, and the loader gives their shared download the most urgent priority.
    var workKey: WorkKey? {
        guard context.box.settings.requestModifier == nil, context.box.settings.responseModifier == nil, context.box.settings.decryptor == nil,
              context.box.settings.cacheSerializer == nil,
              let loader = Self.identity(of: loader)
        else { return nil }
        let decodeOptions = decodeOptions
        return WorkKey(
            image: keys.image, decodeOptions: decodeOptions, options: options.subtracting(.deliveryOnly).rawValue,
            cacheTypes: [queryCacheType, storeCacheType, originalStoreCacheType],
            parts: [ObjectIdentifier(cache), loader, ObjectIdentifier(coders)])
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
