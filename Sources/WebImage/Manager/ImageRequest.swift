import Foundation

/// One load, decided once: SDWebImage's URL + options + context, resolved against a manager's
/// defaults into the parts it runs with (cache, loader, coders, transformer), its keys, its
/// decode options and its ``LoadPolicy``.
///
/// ``ImageManager/request(for:options:context:)`` builds it; every entry point (async, events,
/// callbacks, the target binding, the prefetcher) builds one per load and hands it to the
/// manager's stages, so that no stage works out again what the request already says. A plain
/// value: it keeps what it resolved, not the manager that resolved it.
public struct ImageRequest: Sendable {
    /// The URL to load.
    public let url: URL
    /// The options, as given.
    public let options: WebImageOptions
    /// The context, as given.
    public let context: ImageContext
    /// The keys the image and its original bytes are cached under.
    public let keys: ImageCacheKeys
    /// What the load does with the caches, the failed-URL list and the download.
    public let policy: LoadPolicy
    /// How loaded bytes are decoded: the context's options with the scale (from the context or
    /// the URL's `@2x`/`@3x`), the scale-down limit of `scaleDownLargeImages` (the context's,
    /// else the manager's) and the policy's first-frame-only flag.
    public let decodeOptions: ImageDecodeOptions
    /// The cache: the context's, else the manager's.
    let cache: any ImageCaching
    /// The cache of originals: the context's `originalImageCache`, else ``cache``.
    let originalCache: any ImageCaching
    /// The loader: the context's, else the manager's.
    let loader: any ImageLoader
    /// The coders: the context's, else the manager's.
    let coders: ImageCoders
    /// The transformer: the context's, else the manager's.
    let transformer: (any ImageTransformer)?
    /// Whether there is a URL to load: an empty one is ``WebImageError/invalidURL(_:)``.
    let hasURL: Bool

    /// The load of `url` with `options` and `context`, each setting the context leaves unset
    /// taken from `manager`.
    ///
    /// `urlString` is `url.absoluteString`, read once by the caller: Foundation builds the string
    /// anew on every call, and the memory-hit path before a request has read it already; so has
    /// `policy`, which the caller passes on.
    init(url: URL, urlString: String, options: WebImageOptions, context: ImageContext, policy: LoadPolicy,
         manager: ImageManager) {
        let settings = context.box.settings
        self.url = url
        self.options = options
        self.context = context
        self.policy = policy
        hasURL = !urlString.isEmpty
        keys = context.box.cacheKeys(for: url, urlString: urlString, defaultTransformerKey: manager.transformerKey)
        cache = settings.imageCache ?? manager.imageCache
        originalCache = settings.originalImageCache ?? cache
        loader = settings.imageLoader ?? manager.imageLoader
        coders = settings.coders ?? manager.coders
        transformer = settings.transformer ?? manager.transformer
        var decode = settings.decodeOptions ?? ImageDecodeOptions()
        decode.scaleFactor = settings.imageScaleFactor ?? CacheKey.scaleFactor(of: keys.original)
        if options.contains(.scaleDownLargeImages) && decode.scaleDownLimitBytes == nil {
            decode.scaleDownLimitBytes = manager.scaleDownLimitBytes
        }
        decode.firstFrameOnly = policy.firstFrameOnly
        decodeOptions = decode
    }

    /// Whether the delivered image is not the original's decode: it is decoded as a thumbnail
    /// or transformed, so it has keys of its own and the original bytes are not its bytes.
    var derivesFromOriginal: Bool { keys.image != keys.original }

    /// Where a load (not a cache hit) of ``url`` comes from: the scheme says which loader read it.
    var loadedSource: ImageSource {
        if url.isFileURL { return .file }
        return url.scheme?.lowercased() == "data" ? .data : .network
    }

    /// What the loader is asked with: the request's priority, decode options, coders and
    /// context closures, and the stored `validators` of a revalidation.
    func loaderOptions(_ validators: HTTPValidators?) -> ImageLoaderOptions {
        ImageLoaderOptions(
            priority: policy.priority, decodeOptions: decodeOptions, coders: coders,
            progressive: options.contains(.progressiveLoad),
            requestModifier: context.requestModifier, responseModifier: context.responseModifier,
            decryptor: context.decryptor, ifNoneMatch: validators?.etag, ifModifiedSince: validators?.lastModified,
            allowInvalidSSLCertificates: options.contains(.allowInvalidSSLCertificates),
            handleCookies: options.contains(.handleCookies), retryPolicy: context.downloadRetryPolicy)
    }
}
