import Foundation
import Logging
import Locking

/// Loads images by URL through a cache, a loader, coders and an optional transformer
/// (SDWebImage's `SDWebImageManager`).
///
/// The flow of one load: failed-URL check → cache key (filter, transformer and thumbnail
/// suffixes) → cache query → on a hit, done (with `refreshCached`, revalidated with the
/// server) → `shouldDownload` → load and decode off the caller's task → transform → store
/// (the original bytes and the transformed image under their own keys) → done.
public final class ImageManager: Sendable {
    /// The cache used unless the context names another.
    public let imageCache: any ImageCaching
    /// The loader used unless the context names another.
    public let imageLoader: any ImageLoader
    /// The coders used unless the context names others.
    public let coders: ImageCoders
    /// Applied to every load unless the context names another transformer.
    public let transformer: (any ImageTransformer)?
    /// Asked before each download; `false` fails the load with ``WebImageError/notInCache``.
    public let shouldDownload: (@Sendable (URL) -> Bool)?
    /// Where the manager reports what goes wrong without failing a load: a disk store that
    /// fails (read-only folder, full disk) is logged as a warning, and the load still succeeds.
    public let logger: Logger
    private let failedURLs: FailedURLList

    /// The limit ``WebImageOptions/scaleDownLargeImages`` applies when the context names none:
    /// 60 MiB of decoded pixels, as SDWebImage.
    public static let defaultScaleDownLimitBytes = 60 * 1024 * 1024

    private static let sharedManager = Mutex<ImageManager?>(nil)

    /// The manager the target binding and the prefetcher use by default. Replaceable: set it
    /// once at start-up to a manager with your cache, loader and coders.
    public static var shared: ImageManager {
        get { sharedManager.withLock { manager in manager ?? { manager = ImageManager(); return manager! }() } }
        set { sharedManager.withLock { $0 = newValue } }
    }

    /// A manager over the given parts.
    /// - Parameters:
    ///   - imageCache: memory + disk in `~/.cache/webimage/default` by default.
    ///   - imageLoader: HTTP(S), `file:` and `data:` by default.
    ///   - coders: ``ImageCoders/shared`` by default.
    ///   - transformer: applied to every load (a context's transformer replaces it).
    ///   - failedURLLimit: how many failed URLs are remembered (oldest forgotten first).
    ///   - shouldDownload: asked before each download (SDWebImage's delegate hook).
    ///   - logger: receives the failures that do not fail a load; `WebImage.ImageManager` by default.
    public init(
        imageCache: any ImageCaching = ImageCache(), imageLoader: any ImageLoader = ImageLoaders.shared,
        coders: ImageCoders = .shared, transformer: (any ImageTransformer)? = nil,
        failedURLLimit: Int = 1000, shouldDownload: (@Sendable (URL) -> Bool)? = nil,
        logger: Logger = Logger(label: "WebImage.ImageManager")
    ) {
        self.imageCache = imageCache
        self.imageLoader = imageLoader
        self.coders = coders
        self.transformer = transformer
        self.shouldDownload = shouldDownload
        self.logger = logger
        failedURLs = FailedURLList(limit: failedURLLimit)
    }

    /// Whether `url` is on the failed-URL list.
    public func isFailed(_ url: URL) -> Bool { failedURLs.contains(url) }

    /// The key the image for `url` is cached under with `context`: the filtered URL, plus
    /// SDWebImage's transformer and thumbnail suffixes.
    public func cacheKey(for url: URL, context: ImageContext = ImageContext()) -> String {
        cacheKey(forOriginalKey: context.cacheKeyFilter?(url) ?? url.absoluteString, context: context)
    }

    /// `originalKey` (the filtered URL) with the transformer and thumbnail suffixes of `context`.
    func cacheKey(forOriginalKey originalKey: String, context: ImageContext) -> String {
        var key = originalKey
        if let box = context.decodeOptions?.thumbnailPixelSize {
            let preserve = context.decodeOptions?.preserveAspectRatio ?? true
            key = CacheKey.inserting(CacheKey.thumbnailSuffix(box, preserveAspectRatio: preserve), into: key)
        }
        if let transformer = context.transformer ?? transformer {
            key = CacheKey.inserting(transformer.key, into: key)
        }
        return key
    }

    /// The image for `url` from the memory cache, answered at once; nil on a miss.
    public func imageFromMemory(for url: URL, context: ImageContext = ImageContext()) -> Image? {
        (context.imageCache ?? imageCache).imageFromMemory(forKey: cacheKey(for: url, context: context))
    }

    /// The whole answer to a load when the memory cache has it: the image for `url` when the
    /// options and context look in memory, want no disk bytes along with it and no
    /// revalidation, and the URL is not on the failed list; nil otherwise. Answered under the
    /// cache's lock, before any task or load plan exists.
    func immediateMemoryResult(for url: URL, options: WebImageOptions, context: ImageContext) -> ImageResult? {
        guard context.queryCacheType(with: options).includesMemory,
              options.isDisjoint(with: [.queryMemoryData, .refreshCached]),
              !(failedURLs.contains(url) && !options.contains(.retryFailed)),
              let image = imageFromMemory(for: url, context: context)
        else { return nil }
        return ImageResult(image: image, data: nil, source: .memory, url: url)
    }

    /// Loads the image for `url`. Throws ``WebImageError``; cancelling the task cancels the
    /// load (``WebImageError/cancelled``). With `refreshCached`, returns the revalidated result.
    public func image(for url: URL?, options: WebImageOptions = [], context: ImageContext = ImageContext())
        async throws(WebImageError) -> ImageResult {
        try await load(url, options: options, context: context, events: nil)
    }

    /// Loads the image for `url`, reporting progress, partial images, the cached image under
    /// `refreshCached`, and the result, in order. The sequence ends after `.finished` or with
    /// a ``WebImageError``; ending the iteration cancels the load.
    public func events(for url: URL?, options: WebImageOptions = [], context: ImageContext = ImageContext())
        -> AsyncThrowingStream<ImageManagerEvent, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let result = try await load(url, options: options, context: context) { continuation.yield($0) }
                    continuation.yield(.finished(result))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// The whole flow; `events` receives what happens before the result.
    func load(_ url: URL?, options: WebImageOptions, context: ImageContext,
              events: (@Sendable (ImageManagerEvent) -> Void)?) async throws(WebImageError) -> ImageResult {
        guard let url, !url.absoluteString.isEmpty else { throw .invalidURL("no URL") }
        if let hit = immediateMemoryResult(for: url, options: options, context: context) { return hit }
        if failedURLs.contains(url) && !options.contains(.retryFailed) { throw .blacklisted }
        let plan = LoadPlan(manager: self, url: url, options: options, context: context)
        do {
            var cached: ImageResult?
            if let hit = try await plan.queryCache() {
                guard options.contains(.refreshCached) else { return hit }
                events?(.cachedImage(hit))
                cached = hit
            }
            if options.contains(.fromCacheOnly) || !(shouldDownload?(url) ?? true) {
                if let cached { return cached }
                throw WebImageError.notInCache
            }
            let validators = cached == nil ? nil : await plan.cache.validators(forKey: plan.key)
            do {
                let result = try await plan.download(validators: validators, events: events)
                if options.contains(.retryFailed) { failedURLs.remove(url) }
                return result
            } catch WebImageError.cacheNotModified where cached != nil {
                return ImageResult(image: cached!.image, data: cached!.data, source: .revalidated, url: url)
            } catch let error as WebImageError {
                if plan.loader.shouldBlockFailedURL(url, error: error) { failedURLs.insert(url) }
                throw error
            }
        } catch let error as WebImageError {
            throw Task.isCancelled ? .cancelled : error
        } catch {
            throw Task.isCancelled || error is CancellationError
                ? .cancelled : .network(NetworkFailure(.other("\(error)"), cause: String(reflecting: error)))
        }
    }
}
