import Dispatch
import Foundation

/// Per-load settings that are values rather than flags (SDWebImage's `SDWebImageContext`),
/// with typed properties instead of string keys. Unset properties fall back to the manager's.
///
/// The properties are those of ``Settings``, read and written on the context itself
/// (`context.transformer = .grayscale`). A context is copied with every load, so it holds its
/// settings in one shared, immutable box: a copy costs a reference, a change makes a new box.
@dynamicMemberLookup
public struct ImageContext: Sendable {
    /// What a context can say about a load.
    public struct Settings: Sendable {
        /// The target binding's operation key: a new load under the same key cancels the old one.
        public var operationKey: String?
        /// The manager that loads for the target binding instead of ``ImageManager/shared``
        /// (SDWebImage's `customManager`).
        public var manager: ImageManager?
        /// Where callback-style completions and progress run; nil runs them on the loading task.
        public var callbackQueue: DispatchQueue?
        /// The cache to use instead of the manager's.
        public var imageCache: (any ImageCaching)?
        /// The loader to use instead of the manager's.
        public var imageLoader: (any ImageLoader)?
        /// The coders to decode with instead of the manager's.
        public var coders: ImageCoders?
        /// Applied after decoding; its key is part of the cache key.
        public var transformer: (any ImageTransformer)?
        /// Thumbnail size, scale-down limit, maximum pixels. A thumbnail size is part of the cache key.
        public var decodeOptions: ImageDecodeOptions?
        /// The scale of the image; by default 2 or 3 for `@2x`/`@3x` in the URL, else 1.
        public var imageScaleFactor: Double?
        /// Where to look for the (transformed) image; by default all tiers (none with `fromLoaderOnly`).
        public var queryCacheType: ImageCacheType?
        /// Where to store the (transformed) image; by default all tiers.
        public var storeCacheType: ImageCacheType?
        /// Where to store the original bytes when the image is transformed or decoded as a
        /// thumbnail; disk by default.
        public var originalStoreCacheType: ImageCacheType?
        /// Where to look for the original when the transformed or thumbnail image is not cached,
        /// to make it from the cached original instead of downloading (SDWebImage's
        /// `originalQueryCacheType`); disk by default, `.none` to always download.
        public var originalQueryCacheType: ImageCacheType?
        /// A cache of its own for originals (SDWebImage's `originalImageCache`); the load's cache
        /// by default.
        public var originalImageCache: (any ImageCaching)?
        /// Changes each HTTP request before it is sent.
        public var requestModifier: ImageRequestModifier?
        /// When a failed download is tried again, over the downloader's policy.
        public var downloadRetryPolicy: DownloadRetryPolicy?
        /// Changes each HTTP response head before it is checked.
        public var responseModifier: ImageResponseModifier?
        /// Turns received bytes into decodable bytes.
        public var decryptor: ImageDataDecryptor?
        /// Maps a URL to its cache key, e.g. to drop a signed URL's expiring token; nil result
        /// means the full URL.
        public var cacheKeyFilter: (@Sendable (URL) -> String?)?
        /// Decides the bytes written to disk for an image.
        public var cacheSerializer: ImageCacheSerializer?
        /// How an image the disk cache must encode (a transformed or thumbnail image, which has
        /// no downloaded bytes) is encoded: quality, `maxPixelSize`, `maxFileSize`, background
        /// (SDWebImage's `imageEncodeOptions`); without a ``cacheSerializer``.
        public var imageEncodeOptions: ImageEncodeOptions?
        /// The format such an image is encoded in, over the cache's own choice (the source's,
        /// else GIF, PNG or JPEG): SDWebImage 5.21.3's per-request encoder for cache stores.
        public var imageEncodeFormat: ImageFormat?
    }

    /// One context's settings, shared by its copies until one of them changes.
    final class Box: Sendable {
        let settings: Settings
        /// The key of ``Settings/transformer``, asked once per context rather than once per load.
        let transformerKey: String?
        /// What the settings decide of a load's ``LoadPolicy``, worked out once per context.
        let policy: LoadPolicy.ContextPart
        init(_ settings: Settings) {
            self.settings = settings
            transformerKey = settings.transformer?.key
            policy = LoadPolicy.ContextPart(settings)
        }

        /// The keys of a load of `url` (whose absolute string is `urlString`) with these
        /// settings, transformed by this context's transformer, else by the one whose key is
        /// `defaultTransformerKey`. Read here, where the settings are borrowed, not copied.
        func cacheKeys(for url: URL, urlString: String, defaultTransformerKey: String?) -> ImageCacheKeys {
            ImageCacheKeys(url: url, urlString: urlString, filter: settings.cacheKeyFilter, decodeOptions: settings.decodeOptions,
                           transformerKey: transformerKey ?? defaultTransformerKey)
        }

        /// The key of the image a load of `url` delivers: ``ImageCacheKeys/image`` of
        /// ``cacheKeys(for:urlString:defaultTransformerKey:)``, all a memory hit needs.
        func imageKey(for url: URL, urlString: String, defaultTransformerKey: String?) -> String {
            ImageCacheKeys.image(url: url, urlString: urlString, filter: settings.cacheKeyFilter,
                                 decodeOptions: settings.decodeOptions, transformerKey: transformerKey ?? defaultTransformerKey)
        }

        /// The image under `key` in the memory tier of the context's cache, else of `defaultCache`.
        func imageFromMemory(forKey key: String, defaultCache: any ImageCaching) -> Image? {
            settings.imageCache == nil
                ? defaultCache.imageFromMemory(forKey: key)
                : settings.imageCache?.imageFromMemory(forKey: key)
        }

        static let empty = Box(Settings())
    }

    /// The settings, read in place by the stages (`context.box.settings.transformer`): a field
    /// of a class's constant is read without copying the struct or going through a key path.
    private(set) var box: Box

    /// An empty context: every setting falls back to the manager's.
    public init() { box = .empty }

    /// The setting at `keyPath`, as ``Settings`` declares it.
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<Settings, Value>) -> Value {
        get { box.settings[keyPath: keyPath] }
        set {
            var settings = box.settings
            settings[keyPath: keyPath] = newValue
            box = Box(settings)
        }
    }
}

extension ImageContext {
    /// Runs a callback on ``Settings/callbackQueue`` when set, otherwise at once on the calling task.
    func deliver(_ callback: @escaping @Sendable () -> Void) {
        if let queue = self.callbackQueue { queue.async(execute: callback) } else { callback() }
    }

    /// Runs `completed` with `result` on ``Settings/callbackQueue`` when set, otherwise at once;
    /// a completion run at once costs no closure of its own (memory hits complete this way).
    func complete(_ completed: @escaping ImageLoadCompletion, with result: Result<ImageResult, WebImageError>, finished: Bool) {
        if let queue = box.settings.callbackQueue { queue.async { completed(result, finished) } } else { completed(result, finished) }
    }
}
