import Foundation
import Logging
import Locking

/// Loads images by URL through a cache, a loader, coders and an optional transformer
/// (SDWebImage's `SDWebImageManager`).
///
/// The flow of one load: the URL, options and context resolved once into an ``ImageRequest``
/// (cache, loader, coders, transformer, keys, decode options, ``LoadPolicy``) → memory hit → failed-URL check → the stages, shared by
/// every identical load under way: cache query → on a hit, done (with `refreshCached`,
/// revalidated with the server) → `shouldDownload` → load and decode off the caller's task →
/// transform → store (the original bytes and the transformed image under their own keys).
public final class ImageManager: Sendable {
    /// The cache used unless the context names another.
    public let imageCache: any ImageCaching
    /// The loader used unless the context names another.
    public let imageLoader: any ImageLoader
    /// The coders used unless the context names others.
    public let coders: ImageCoders
    /// Applied to every load unless the context names another transformer.
    public let transformer: (any ImageTransformer)?
    /// The key of ``transformer``, asked once.
    let transformerKey: String?
    /// Asked before each download; `false` fails the load with ``WebImageError/notInCache``.
    public let shouldDownload: (@Sendable (URL) -> Bool)?
    /// Rewrites the options and context of every load before anything else looks at them
    /// (SDWebImage's `optionsProcessor`), for example to add `scaleDownLargeImages` to the
    /// URLs of one host.
    public let optionsProcessor: OptionsProcessor?
    /// Where the manager reports what goes wrong without failing a load: a disk store that
    /// fails (read-only folder, full disk) is logged as a warning, and the load still succeeds.
    public let logger: Logger
    let failedURLs: FailedURLList
    /// Loads under way, by the request's work key: identical concurrent loads run once.
    let inFlight: InFlightWork<LoadPolicy.WorkKey, ImageResult, WebImageError, ImageLoadingEvent>
    /// Loads of bytes under way (``data(for:options:context:events:)``), by the request's work key.
    let dataInFlight = InFlightWork<LoadPolicy.WorkKey, ImageDataResult, WebImageError, ImageLoadingEvent>(cancelled: .cancelled)
    /// The callback loads started and not yet completed, known from before their task runs.
    let callbackLoads = OperationRegistry()

    /// The limit ``WebImageOptions/scaleDownLargeImages`` applies when the context names none.
    public let scaleDownLimitBytes: Int

    /// The default of ``scaleDownLimitBytes``: 60 MiB of decoded pixels, as SDWebImage.
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
    ///   - optionsProcessor: rewrites each load's options and context (see ``optionsProcessor``).
    ///   - scaleDownLimitBytes: the decoded size ``WebImageOptions/scaleDownLargeImages`` keeps
    ///     images under when the context names no limit.
    ///   - logger: receives the failures that do not fail a load; `WebImage.ImageManager` by default.
    ///   - executor: where the loads' stages run (a ``CodecExecutor``, so that decoding and
    ///     transforming stay off Swift's cooperative pool); nil, the default, runs them there.
    public init(
        imageCache: any ImageCaching = ImageCache(), imageLoader: any ImageLoader = ImageLoaders.shared,
        coders: ImageCoders = .shared, transformer: (any ImageTransformer)? = nil,
        failedURLLimit: Int = 1000, shouldDownload: (@Sendable (URL) -> Bool)? = nil,
        optionsProcessor: OptionsProcessor? = nil, scaleDownLimitBytes: Int = ImageManager.defaultScaleDownLimitBytes,
        logger: Logger = Logger(label: "WebImage.ImageManager"), executor: (any TaskExecutor)? = nil
    ) {
        self.imageCache = imageCache
        self.imageLoader = imageLoader
        self.coders = coders
        self.transformer = transformer
        transformerKey = transformer?.key
        self.shouldDownload = shouldDownload
        self.optionsProcessor = optionsProcessor
        self.scaleDownLimitBytes = scaleDownLimitBytes
        self.logger = logger
        failedURLs = FailedURLList(limit: failedURLLimit)
        inFlight = InFlightWork(cancelled: .cancelled, executor: executor)
    }

    /// Whether `url` is on the failed-URL list.
    public func isFailed(_ url: URL) -> Bool { failedURLs.contains(url) }

    /// Takes `url` off the failed-URL list, so that it is tried again.
    public func removeFailedURL(_ url: URL) { failedURLs.remove(url) }

    /// Empties the failed-URL list.
    public func removeAllFailedURLs() { failedURLs.removeAll() }

    /// Whether any load is under way (SDWebImage's `isRunning`): a callback load counts from
    /// the moment ``loadImage(with:options:context:progress:completed:)`` returns its operation.
    public var isRunning: Bool { inFlight.isRunning || dataInFlight.isRunning || !callbackLoads.isEmpty }

    /// Cancels every load under way: each one completes with ``WebImageError/cancelled``
    /// (SDWebImage's `cancelAll`), a callback load that has not reached its stages yet included.
    public func cancelAll() {
        callbackLoads.cancelAll()
        inFlight.cancelAll()
        dataInFlight.cancelAll()
    }

    /// The load of `url` with `options` and `context` (as the ``optionsProcessor`` rewrites
    /// them), resolved against this manager's cache, loader, coders, transformer and
    /// scale-down limit: its parts, keys, decode options and policy.
    public func request(for url: URL, options: WebImageOptions = [], context: ImageContext = ImageContext()) -> ImageRequest {
        let (options, context) = optionsProcessor.map { $0(url, options, context) } ?? (options, context)
        // Read once: Foundation builds the string anew on every call.
        return ImageRequest(url: url, urlString: url.absoluteString, options: options, context: context,
                            policy: LoadPolicy(options: options, context: context.box.policy), manager: self)
    }

    /// The key the image for `url` is cached under with `context`: the filtered URL, plus
    /// SDWebImage's transformer and thumbnail suffixes (``ImageCacheKeys/image``).
    public func cacheKey(for url: URL, context: ImageContext = ImageContext()) -> String {
        request(for: url, context: context).keys.image
    }

    /// The image for `url` from the memory cache, answered at once; nil on a miss.
    public func imageFromMemory(for url: URL, context: ImageContext = ImageContext()) -> Image? {
        let request = request(for: url, context: context)
        return request.cache.imageFromMemory(forKey: request.keys.image)
    }

    /// Loads the image for `url`. Throws ``WebImageError``; cancelling the task cancels the
    /// load (``WebImageError/cancelled``). With `refreshCached`, returns the revalidated result.
    ///
    /// A memory hit is answered on the caller's executor, without a hop; the rest of the load
    /// runs off it.
    public nonisolated(nonsending) func image(for url: URL?, options: WebImageOptions = [], context: ImageContext = ImageContext())
        async throws(WebImageError) -> ImageResult {
        let url = try validated(url)
        // An options processor may change what the load is: it runs first, in `request(for:)`.
        guard optionsProcessor == nil else { return try await load(request(for: url, options: options, context: context), events: nil) }
        // Answered here, without a request value or a further async call: memory hits are most loads.
        switch start(url, options: options, context: context) {
        case .hit(let hit): return hit
        case .miss(let request): return try await loadAfterMemoryMiss(request, events: nil)
        }
    }

    /// Loads the image `request` names; see ``image(for:options:context:)``.
    public func image(for request: ImageRequest) async throws(WebImageError) -> ImageResult {
        try await load(request, events: nil)
    }

    /// Loads the image for `url`, reporting progress, partial images, the cached image under
    /// `refreshCached`, and the result, in order. The sequence ends after `.finished` or with
    /// a ``WebImageError``; ending the iteration cancels the load.
    public func events(for url: URL?, options: WebImageOptions = [], context: ImageContext = ImageContext())
        -> AsyncThrowingStream<ImageLoadingEvent, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let request = request(for: try validated(url), options: options, context: context)
                    let result = try await load(request) { continuation.yield($0) }
                    continuation.yield(.finished(result))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// `url`, when there is one.
    func validated(_ url: URL?) throws(WebImageError) -> URL {
        guard let url else { throw .invalidURL("no URL") }
        return url
    }
}

extension ImageManager {
    /// Rewrites a load's options and context from its URL (SDWebImage's `SDWebImageOptionsProcessor`);
    /// return them unchanged to keep them.
    public typealias OptionsProcessor = @Sendable (URL, WebImageOptions, ImageContext) -> (WebImageOptions, ImageContext)
}
