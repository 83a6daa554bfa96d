import Dispatch
import Foundation
import Locking
import Metrics
import Tracing
import WebImage
import WebImageCodecs

/// Turns parsed imgproxy URLs into encoded images through an `ImageManager`: the source's
/// bytes are fetched (and cached) by the manager before a processing slot is taken, so that a
/// slow origin holds none; in the slot they are decoded, at a reduced size when the output is
/// smaller, transformed by a `ProcessingTransformer` once its output size is known to be within
/// the limit, and encoded; the result is cached under the URL's canonical key, in memory and,
/// when given, on disk and in a cache shared with other instances. Identical requests arriving
/// together make their result once.
///
/// Results are looked up memory → local disk → shared cache, and a hit below memory is written
/// back to the tiers above (to the disk in the background, with the creation time the shared
/// cache kept: every instance answers one `Last-Modified`); only when all miss is the result
/// made. Sources are the manager's: give it an `ImageCachesManager` that chains a shared tier
/// below its local cache, and the instances fetch each source once between them too. Which
/// addresses `http(s)` sources may come from is the manager's downloader's business: give it a
/// ``SourceAddressPolicy`` (as `webimage serve` does), which it applies when it connects.
public final class ImageProcessor: Sendable {
    /// Fetches the sources' bytes (and keeps them), coalescing identical fetches.
    public let manager: ImageManager
    /// Encodes results.
    public var coders: ImageCoders { encoder.coders }
    /// The limits the processor holds sources, results and its slots to.
    public let limits: ServerConfiguration.LimitSettings
    /// What results are made of by default (quality, SVG drawn or kept).
    public let output: ServerConfiguration.OutputSettings
    /// What a result keeps of its origin's answer (its `Last-Modified`, its lifetime).
    let answers: ServerConfiguration.AnswerSettings
    /// Which sources are loaded, and the folder `local:///path` sources are read from.
    public var sources: SourcePolicy { fetcher.sources }
    /// The most pixels a source may declare (``ServerConfiguration/LimitSettings/maxSrcResolution``, as
    /// imgproxy's `IMGPROXY_MAX_SRC_RESOLUTION`), checked from its header before decoding, all
    /// frames of an animation together as imgproxy sums them; the decoded frames are held to it
    /// too.
    public let maxSourcePixels: Int
    /// The most pixels a result may have, all frames together.
    public let maxResultPixels: Int
    /// The watermark laid over results and the fallback image answered for sources that
    /// cannot be loaded, when configured.
    public let auxiliary: AuxiliaryImages
    /// The slots image work waits for.
    private let slots: ProcessingSlots
    /// Fetches sources and overlay images.
    let fetcher: SourceFetcher
    /// Chooses output formats and encodes.
    let encoder: OutputEncoder
    /// Encoded results by canonical key: memory, local disk, shared tier.
    private let results: ResultCache
    /// Encoded results by canonical key, shared with other instances (a Redis tier, object
    /// storage, or a chain of both, Redis asked first): asked after the local disk, written after
    /// a result is made.
    public var sharedCache: (any ImageCaching)? { results.shared }
    /// The results being made now, by canonical key: identical requests arriving together make
    /// their result once, in one processing slot. The manager already shares the source's
    /// download and decode; this shares the transform and encode (of encoded, negotiated
    /// results, which the manager does not cache) through the same generic in-flight map.
    private let making: InFlightWork<String, ProcessedImage, ProcessingError, Never>
    /// Where lookups, downloads and processing are counted and timed.
    let metrics: ServerMetrics
    /// Where the work inside a slot runs (decoding, transforming, encoding), or nil for the
    /// caller's executor. Only that work: a request waiting for its source or for a slot holds
    /// none of its threads, so that it reaches the queue (and is counted, or refused when the
    /// queue is full) while every thread is busy.
    private let executor: (any TaskExecutor)?
    /// The spans of each stage, when the server traces.
    let tracing: RequestTracer

    /// A processor loading through `manager` the sources `configuration` allows, refusing
    /// sources and results over its pixel and frame limits, making at most its `concurrency`
    /// results at once with `maxQueue` more waiting (then ``ProcessingError/busy``), encoding
    /// with `coders`, caching results in memory (up to `memoryLimitBytes`), in `disk` and in
    /// `sharedCache` (its disk tier) when given, measuring into `metrics`, decoding (with the
    /// manager's coders), transforming and encoding on `executor` (a `CodecExecutor`) when given,
    /// with the watermark and fallback image of `auxiliary` (``AuxiliaryImages/load(_:manager:)``),
    /// each stage a span of `tracer` when given.
    public init(manager: ImageManager, configuration: ServerConfiguration = ServerConfiguration(),
                coders: ImageCoders = .shared, memoryLimitBytes: Int = 64 << 20, disk: DiskCache? = nil,
                sharedCache: (any ImageCaching)? = nil, metrics: ServerMetrics = ServerMetrics(),
                executor: (any TaskExecutor)? = nil, auxiliary: AuxiliaryImages = AuxiliaryImages(),
                tracer: (any Tracer)? = nil) {
        self.auxiliary = auxiliary
        tracing = RequestTracer(tracer: tracer)
        making = InFlightWork(cancelled: .cancelled)
        self.executor = executor
        slots = ProcessingSlots(concurrency: configuration.limits.concurrency, maxQueue: configuration.limits.maxQueue,
                                queueLength: metrics.queueLength)
        limits = configuration.limits
        output = configuration.output
        answers = configuration.answers
        maxSourcePixels = Int(configuration.limits.maxSrcResolution * 1_000_000)
        maxResultPixels = Int(configuration.limits.maxResultResolution * 1_000_000)
        self.manager = manager
        fetcher = SourceFetcher(manager: manager, sources: SourcePolicy(configuration.sources, allowsObjectStorage: configuration.objectStorage.useS3,
                                                            allowedBuckets: configuration.objectStorage.s3AllowedBuckets,
                                                            deniedBuckets: configuration.objectStorage.s3DeniedBuckets), metrics: metrics)
        encoder = OutputEncoder(coders: coders, defaultQuality: configuration.output.quality)
        results = ResultCache(memoryLimitBytes: memoryLimitBytes, disk: disk, shared: sharedCache, metrics: metrics,
                              encodingTag: configuration.output.encodingTag)
        self.metrics = metrics
    }

    /// The image `url` describes, from the result cache, from a making under way for the same
    /// result, or made now; `now` is compared with the URL's `expires`.
    public func process(_ url: ProcessingURL, now: Date = Date()) async throws(ProcessingError) -> ProcessedImage {
        try await process(url, cacheKey: url.cacheKey, now: now)
    }

    /// The image `url` describes, cached under `key`, which must be `url.cacheKey` (a server
    /// that keeps the key of a path it has seen passes it, rather than spelling it again). When
    /// it is made from a download, the client's `conditions` go to the origin with it, and an
    /// origin's 304 throws ``ProcessingError/sourceNotModified(_:)``; such a making is the
    /// request's own, since its answer is only the asker's. So is the making of a URL that
    /// bypasses the cache (``ProcessingOptions/bypassesCache``), which neither reads the result
    /// tiers nor fills them, and downloads its source again, and of private conditions
    /// (``SourceConditions/isPrivate``: cookies went with the download), which touches no cache.
    public func process(_ url: ProcessingURL, cacheKey key: String, now: Date = Date(),
                        conditions: SourceConditions? = nil) async throws(ProcessingError) -> ProcessedImage {
        let isPrivate = conditions?.isPrivate == true
        try Self.checkExpiry(of: url, now: now)
        if !isPrivate, let cached = try resultInMemory(url, cacheKey: key, now: now) { return cached }
        var image: ProcessedImage
        let bypasses = url.options.bypassesCache || isPrivate
        let stored = bypasses ? nil : await tracing.span("Reading cached result") { span in
            let stored = await results.below(forKey: key, now: now)
            span.set("webimage.cache.hit", stored.map { "\($0.source)" } ?? "none")
            return stored
        }
        if let stored {
            image = stored
        } else {
            do throws(ProcessingError) {
                if conditions != nil || bypasses {
                    image = try await make(url, cacheKey: key, conditions: conditions)
                } else {
                    let (made, joined) = try await making.value(for: key) { [self] _ async throws(ProcessingError) in
                        try await make(url, cacheKey: key, conditions: nil)
                    }
                    image = made
                    if joined { image.source = .coalesced }
                }
            } catch let error where error.allowsFallback {
                guard let fallback = await fallbackImage(for: url) else { throw error }
                // Made for this request and not cached: the source may be there next time.
                let overlays = try await fetcher.overlays(of: url)
                image = try await makeInSlot(url, from: ImageDataResult(data: fallback, source: .data, url: Self.fallbackURL),
                                             overlays: overlays)
                image.isFallback = true
            }
        }
        metrics.countResult(from: image.source)
        return image
    }

    /// The image `url` describes made now and cached under `key` (unless it bypasses the cache):
    /// its source fetched (with the client's `conditions`), its overlays, then the result made in a
    /// slot, dated and kept as its origin said.
    private func make(_ url: ProcessingURL, cacheKey key: String, conditions: SourceConditions?) async throws(ProcessingError)
        -> ProcessedImage {
        // The download waits on the network outside the slots: a slow origin holds no slot, and
        // only work that is ready to use a core takes one.
        let source = try await tracing.span("Downloading image") { span async throws(ProcessingError) in
            let source = try await fetcher.fetch(url.source, fallback: url.sourceFallback, conditions: conditions,
                                                 fresh: url.options.bypassesCache)
            span.set("webimage.source.bytes", source.data.count)
            span.set("webimage.source.from", "\(source.source)")
            return source
        }
        if let limit = url.options.sourceLimits.maxSrcFileSize, source.data.count > limit {
            throw .sourceTooLarge("over \(limit) bytes")
        }
        let overlays = try await fetcher.overlays(of: url)
        var made = try await tracing.span("Processing image") { _ async throws(ProcessingError) in
            try await makeInSlot(url, from: source, overlays: overlays)
        }
        if let response = source.response { made.take(OriginHeaders(response), under: answers) }
        // Once the result is cached a later request finds it there; until then it joins.
        if !url.options.bypassesCache, conditions?.isPrivate != true {
            await tracing.span("Storing result") { _ in await results.store(made, forKey: key) }
        }
        return made
    }

    /// The image `url` describes made from `source` and the encoded images of its `overlays` in
    /// a processing slot, on the executor.
    /// An `/info` answer that needs no pixel (``InfoOptions/readsHeadersOnly``) is made where
    /// the request runs, without a slot: it reads a header and the metadata blocks, which takes
    /// less than the two hops to the executor and back.
    private func makeInSlot(_ url: ProcessingURL, from source: ImageDataResult, overlays: OverlayImages) async throws(ProcessingError)
        -> ProcessedImage {
        if let info = url.options.info, info.readsHeadersOnly, url.options.crop == nil, url.options.requiredHashsum == nil {
            return try describe(source, url: url, info: info)
        }
        return try await slots.run { () async throws(ProcessingError) -> ProcessedImage in
            try await withTaskExecutorPreference(executor) { () async throws(ProcessingError) -> ProcessedImage in
                try await make(url, from: source, overlays: overlays)
            }
        }
    }

    /// The bytes of the image answered when `url`'s source cannot be loaded: its
    /// `fallback_image_url`'s, fetched as a source is, else the configured fallback's; nil when
    /// there is none or the URL's cannot be fetched either (the source's error is answered).
    private func fallbackImage(for url: ProcessingURL) async -> Data? {
        guard let address = url.options.fallbackImageURL else { return auxiliary.fallback }
        return try? await fetcher.fetch(address).data
    }

    /// Throws ``ProcessingError/expired`` when `now` is past `url`'s `expires`.
    private static func checkExpiry(of url: ProcessingURL, now: Date) throws(ProcessingError) {
        if let expires = url.options.expires, now.timeIntervalSince1970 > Double(expires) { throw .expired }
    }

    /// What the fallback image's bytes are filed under: no cache keeps them by it.
    static let fallbackURL = URL(string: "data:webimage-fallback")!

    /// The result `url` describes if the memory cache holds it under `key` (counted as a memory
    /// hit), else nil (always for a URL that bypasses the cache); throws
    /// ``ProcessingError/expired`` past the URL's `expires`, as
    /// ``process(_:cacheKey:now:conditions:)`` does. It neither waits nor does I/O, so a server can answer
    /// from it on the thread that read the request.
    public func resultInMemory(_ url: ProcessingURL, cacheKey key: String, now: Date = Date()) throws(ProcessingError)
        -> ProcessedImage? {
        try Self.checkExpiry(of: url, now: now)
        guard !url.options.bypassesCache, var image = results.inMemory(forKey: key) else { return nil }
        image.source = .memory
        image.sourceOrigin = nil
        metrics.countResult(from: .memory)
        return image
    }
}
