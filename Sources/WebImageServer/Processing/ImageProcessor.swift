import Dispatch
import Foundation
import Locking
import Metrics
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
    public let coders: ImageCoders
    /// The settings the processor follows: its limits, sources, quality and concurrency.
    public let configuration: ServerConfiguration
    /// Which sources are loaded, and the folder `local:///path` sources are read from.
    public let sources: SourcePolicy
    /// The most pixels a source may declare (``ServerConfiguration/maxSrcResolution``, as
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
    private let metrics: ServerMetrics
    /// Where the work inside a slot runs (decoding, transforming, encoding), or nil for the
    /// caller's executor. Only that work: a request waiting for its source or for a slot holds
    /// none of its threads, so that it reaches the queue (and is counted, or refused when the
    /// queue is full) while every thread is busy.
    private let executor: (any TaskExecutor)?

    /// A processor loading through `manager` the sources `configuration` allows, refusing
    /// sources and results over its pixel and frame limits, making at most its `concurrency`
    /// results at once with `maxQueue` more waiting (then ``ProcessingError/busy``), encoding
    /// with `coders`, caching results in memory (up to `memoryLimitBytes`), in `disk` and in
    /// `sharedCache` (its disk tier) when given, measuring into `metrics`, decoding (with the
    /// manager's coders), transforming and encoding on `executor` (a `CodecExecutor`) when given,
    /// with the watermark and fallback image of `auxiliary` (``AuxiliaryImages/load(_:manager:)``).
    public init(manager: ImageManager, configuration: ServerConfiguration = ServerConfiguration(),
                coders: ImageCoders = .shared, memoryLimitBytes: Int = 64 << 20, disk: DiskCache? = nil,
                sharedCache: (any ImageCaching)? = nil, metrics: ServerMetrics = ServerMetrics(),
                executor: (any TaskExecutor)? = nil, auxiliary: AuxiliaryImages = AuxiliaryImages()) {
        self.auxiliary = auxiliary
        making = InFlightWork(cancelled: .cancelled)
        self.executor = executor
        slots = ProcessingSlots(concurrency: configuration.concurrency, maxQueue: configuration.maxQueue,
                                queueLength: metrics.queueLength)
        self.configuration = configuration
        maxSourcePixels = Int(configuration.maxSrcResolution * 1_000_000)
        maxResultPixels = Int(configuration.maxResultResolution * 1_000_000)
        self.manager = manager
        self.coders = coders
        sources = SourcePolicy(configuration)
        results = ResultCache(memoryLimitBytes: memoryLimitBytes, disk: disk, shared: sharedCache, metrics: metrics)
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
    /// request's own, since its answer is only the asker's.
    public func process(_ url: ProcessingURL, cacheKey key: String, now: Date = Date(),
                        conditions: SourceConditions? = nil) async throws(ProcessingError) -> ProcessedImage {
        if let cached = try resultInMemory(url, cacheKey: key, now: now) { return cached }
        var image: ProcessedImage
        if let stored = await results.below(forKey: key, now: now) {
            image = stored
        } else {
            do throws(ProcessingError) {
                if let conditions {
                    image = try await make(url, cacheKey: key, conditions: conditions)
                } else {
                    let (made, joined) = try await making.value(for: key) { [self] _ async throws(ProcessingError) in
                        try await make(url, cacheKey: key, conditions: nil)
                    }
                    image = made
                    if joined { image.source = .coalesced }
                }
            } catch let error where error.allowsFallback {
                guard let fallback = auxiliary.fallback else { throw error }
                // Made for this request and not cached: the source may be there next time.
                let marks = try await fetchMarks(of: url)
                image = try await makeInSlot(url, from: ImageDataResult(data: fallback, source: .data, url: Self.fallbackURL),
                                             marks: marks)
                image.isFallback = true
            }
        }
        metrics.countResult(from: image.source)
        return image
    }

    /// The image `url` describes made now and cached under `key`: its source fetched (with the
    /// client's `conditions`), its marks, then the result made in a slot, dated and kept as its
    /// origin said.
    private func make(_ url: ProcessingURL, cacheKey key: String, conditions: SourceConditions?) async throws(ProcessingError)
        -> ProcessedImage {
        // The download waits on the network outside the slots: a slow origin holds no slot, and
        // only work that is ready to use a core takes one.
        let source = try await fetch(url.source, conditions: conditions)
        if let limit = url.options.sourceLimits.maxSrcFileSize, source.data.count > limit {
            throw .sourceTooLarge("over \(limit) bytes")
        }
        let marks = try await fetchMarks(of: url)
        var made = try await makeInSlot(url, from: source, marks: marks)
        if let response = source.response { made.take(OriginHeaders(response), under: configuration) }
        // Once the result is cached a later request finds it there; until then it joins.
        await results.store(made, forKey: key)
        return made
    }

    /// The image `url` describes made from `source` and the encoded `marks` of its thumbor
    /// overlays in a processing slot, on the executor.
    private func makeInSlot(_ url: ProcessingURL, from source: ImageDataResult, marks: [Data]) async throws(ProcessingError)
        -> ProcessedImage {
        try await slots.run { () async throws(ProcessingError) -> ProcessedImage in
            try await withTaskExecutorPreference(executor) { () async throws(ProcessingError) -> ProcessedImage in
                try await make(url, from: source, marks: marks)
            }
        }
    }

    /// What the fallback image's bytes are filed under: no cache keeps them by it.
    private static let fallbackURL = URL(string: "data:webimage-fallback")!

    /// The result `url` describes if the memory cache holds it under `key` (counted as a memory
    /// hit), else nil; throws ``ProcessingError/expired`` past the URL's `expires`, as
    /// ``process(_:cacheKey:now:conditions:)`` does. It neither waits nor does I/O, so a server can answer
    /// from it on the thread that read the request.
    public func resultInMemory(_ url: ProcessingURL, cacheKey key: String, now: Date = Date()) throws(ProcessingError)
        -> ProcessedImage? {
        if let expires = url.options.expires, now.timeIntervalSince1970 > Double(expires) { throw .expired }
        guard var image = results.inMemory(forKey: key) else { return nil }
        image.source = .memory
        image.sourceOrigin = nil
        metrics.countResult(from: .memory)
        return image
    }

    /// The image `url` describes, made now from its `source` bytes and the encoded `marks` of
    /// its thumbor overlays: decoded, checked against the limits, transformed, encoded.
    private func make(_ url: ProcessingURL, from source: ImageDataResult, marks: [Data]) async throws(ProcessingError)
        -> ProcessedImage {
        let options = url.options
        // thumbor always draws an SVG source (as PNG unless a format is chosen); imgproxy only
        // when asked, or with --always-rasterize-svg.
        let rasterizesUnnamed = configuration.alwaysRasterizeSVG || url.form == .thumbor
        if options.meta == nil, var svg = try Self.sanitizedSVG(source.data, options: options, rasterizesUnnamed: rasterizesUnnamed) {
            svg.sourceOrigin = source.source
            return svg
        }
        let started = ContinuousClock.now
        let decoded: Image
        do {
            decoded = try decode(source.data, options: options)
        } catch {
            // Bytes that are no image (an upload not finished, a body cut off) are not kept: the
            // next request asks the origin again and answers what it has then.
            if error.isUnusableData, source.url != Self.fallbackURL { await manager.removeData(for: source.url) }
            throw ProcessingError(loading: .badImageData(error))
        }
        // Decoded first all the same: the source's size is checked against the limits.
        if let untouched = Self.skipped(source.data, format: decoded.format, options: options) {
            var result = untouched
            result.sourceOrigin = source.source
            return result
        }
        if let meta = options.meta {
            // thumbor's description of the work, in JSON: no image is encoded, no mark loaded.
            return ProcessedImage(data: ProcessingTransformer(options: options).metadata(of: decoded, meta: meta),
                                  format: .undefined, sourceOrigin: source.source)
        }
        // The overlays' images share the source pixel limit between them: many filters of large marks
        // cost no more than one large source.
        var markPixels: [PixelBuffer] = [], budget = maxSourcePixels
        for mark in marks {
            guard budget > 0 else { throw .unprocessable("the overlays' images are over \(maxSourcePixels) pixels together") }
            do throws(ImageCodingError) {
                let pixels = try AuxiliaryImages.firstFrame(of: mark, coders: manager.coders, maxPixels: budget).pixels
                budget -= pixels.width * pixels.height
                markPixels.append(pixels)
            } catch {
                throw error.isUnusableData ? .watermarkFailed(error.description) : .unprocessable("an overlay image: \(error.description)")
            }
        }
        let transformer = ProcessingTransformer(options: options, watermark: auxiliary.watermark, thumborMarks: markPixels)
        let size = transformer.outputSize(for: decoded)
        let total = size.area.multipliedReportingOverflow(by: decoded.frames.count)
        guard !total.overflow, total.partialValue <= maxResultPixels else {
            throw .unprocessable("the result would be \(size) × \(decoded.frames.count) frame(s), over \(maxResultPixels) pixels")
        }
        // A blur costs its pixels times its radius (a separable kernel of about six sigmas a
        // pass): bounded before it starts, so that a 10-pixel source enlarged to the result
        // limit and blurred by 100 is refused rather than kept busy for half a minute.
        // Sharpening blurs once too, at its own sigma.
        let sigmas = options.blurSigma + options.sharpenSigma + (options.fillsWithBlur ? ProcessingTransformer.fillBlurSigma : 0)
        let blurWork = Double(total.partialValue) * sigmas
        guard blurWork <= Double(maxResultPixels) * Self.blurSigmaAtResultLimit else {
            throw .unprocessable("a blur of \(sigmas.plainText) over \(total.partialValue) pixels is more work than allowed: "
                + "at most \(Self.blurSigmaAtResultLimit.plainText) at the result limit, more on fewer pixels")
        }
        let image = transformer.transform(decoded, forKey: transformer.key) ?? decoded
        // Of a source's metadata, only its copyright tags are carried, when kept.
        let copyright = options.keepCopyright ? EXIFBlock.find(in: source.data).flatMap(EXIF.copyright(fromTIFF:)) : nil
        var result = try encode(image, options: options, exif: copyright)
        metrics.processingDuration.record(duration: started.duration(to: .now))
        result.sourceOrigin = source.source
        return result
    }

    /// The encoded images of `url`'s thumbor overlays (marks, nine-patches), in order, each fetched as a source is
    /// (the same allowed sources, address policy, size limit and cache); a failure is
    /// ``ProcessingError/forWatermark``'s.
    private func fetchMarks(of url: ProcessingURL) async throws(ProcessingError) -> [Data] {
        var marks: [Data] = []
        for overlay in url.options.thumborOverlays {
            do throws(ProcessingError) {
                marks.append(try await fetch(overlay.url).data)
            } catch {
                throw error.forWatermark
            }
        }
        return marks
    }

    /// The bytes of the source at `address`, not decoded: from the manager's cache, else
    /// downloaded (and stored there before the result is made: an instance asked next finds
    /// them), asking the origin with the client's `conditions` when given (its 304 throws
    /// ``ProcessingError/sourceNotModified(_:)`` with what it said). A download is measured from
    /// the load's progress: the time until its last byte arrived and the bytes received.
    private func fetch(_ address: URL, conditions: SourceConditions? = nil) async throws(ProcessingError) -> ImageDataResult {
        let source = try sources.resolve(address)
        let started = ContinuousClock.now
        let received = Mutex<(bytes: Int, at: ContinuousClock.Instant)?>(nil)
        // A source that failed is asked again every time (`retryFailed`): the manager's failed-URL
        // list would answer an upload that was not finished yet, or a truncated body, with the
        // same failure until restart, where the origin's answer now is what a client needs.
        let result: ImageDataResult
        var context = ImageContext()
        let answer = conditions?.ask(in: &context)
        do {
            result = try await manager.data(for: source, options: [.waitStoreCache, .retryFailed], context: context) { event in
                if case .progress(let progress) = event { received.withLock { $0 = (progress.receivedBytes, .now) } }
            }
        } catch .cacheNotModified where answer != nil {
            throw .sourceNotModified(answer?.response.map(OriginHeaders.init) ?? OriginHeaders())
        } catch {
            throw ProcessingError(loading: error, of: source)
        }
        if result.source == .network, let received = received.withLock({ $0 }) {
            metrics.downloadDuration.record(duration: started.duration(to: received.at))
            metrics.sourceBytes.increment(by: received.bytes)
        }
        metrics.countSource(from: result.source)
        return result
    }

    /// `data` decoded as `options` allow: reduced on load when they do, at most the
    /// configuration's `maxAnimationFrames` frames (the first alone when the output cannot move),
    /// within the source pixel limits, which are checked from the header first; the URL's
    /// security options override those limits.
    private func decode(_ data: Data, options: ProcessingOptions) throws(ImageCodingError) -> Image {
        var decodeOptions = Self.decodeOptions(for: options)
        let overrides = options.sourceLimits
        let sourcePixels = overrides.maxSrcResolution.map { Int($0 * 1_000_000) } ?? maxSourcePixels
        decodeOptions.maxPixels = sourcePixels
        // The source's own size counts, from its header, as imgproxy counts it: a shrink on load
        // would let a huge source through while every frame is decoded at full size.
        decodeOptions.maxSourcePixels = sourcePixels
        let framePixels = Int((overrides.maxAnimationFrameResolution ?? configuration.maxAnimationFrameResolution) * 1_000_000)
        decodeOptions.maxAnimationFramePixels = framePixels > 0 ? framePixels : nil
        let maxAnimationFrames = overrides.maxAnimationFrames ?? configuration.maxAnimationFrames
        decodeOptions.maxFrameCount = maxAnimationFrames
        decodeOptions.firstFrameOnly = options.firstFrameOnly
            || !(maxAnimationFrames > 1 && options.format.map(Self.animatedFormats.contains) ?? true)
        drawVector(data, at: options, decodeOptions: &decodeOptions)
        return try manager.coders.decode(data, options: decodeOptions)
    }

    /// Decode options that shrink the source on load when the whole output is known to fit a
    /// box no larger than the source: `fit`, or one side given (but not `force`). Not with a crop, whose pixel
    /// sizes refer to the full-size source, nor with `enlarge`.
    static func decodeOptions(for options: ProcessingOptions) -> ImageDecodeOptions {
        var decode = ImageDecodeOptions()
        if !options.stripColorProfile { decode.colorManagement = .preserve }
        // Trim, zoom and the smallest sizes measure the full-size source.
        guard options.crop == nil, options.trim == nil, options.meta == nil, !options.enlarge, options.width > 0 || options.height > 0,
              options.zoomX == 1, options.zoomY == 1, options.minWidth == 0, options.minHeight == 0,
              !options.widthFromSource, !options.heightFromSource, !options.adaptsToOrientation else { return decode }
        let requested = options.requestedDevicePixels
        let oneSide = requested.width == 0 || requested.height == 0
        // A force with one side keeps the other side of the source: no box bounds it.
        guard (oneSide && options.resizingType != .force) || options.resizingType == .fit else { return decode }
        let box = PixelSize(width: requested.width == 0 ? Int(Int32.max) : requested.width,
                            height: requested.height == 0 ? Int(Int32.max) : requested.height)
        // The box is the output's; the decoder measures the source before the rotation.
        decode.thumbnailPixelSize = options.rotatesOnSide ? PixelSize(width: box.height, height: box.width) : box
        return decode
    }

    /// The source's bytes `data` (of `format`) as they are, when the options ask for them: `raw`,
    /// or a format in `skip_processing` with no other output format asked; nil otherwise.
    static func skipped(_ data: Data, format: ImageFormat, options: ProcessingOptions) -> ProcessedImage? {
        let skips = options.raw || (options.skipProcessing.contains(format) && (options.format == nil || options.format == format))
        guard skips, format != .undefined else { return nil }
        return ProcessedImage(data: data, format: format)
    }

    /// The largest blur radius allowed on a result at the pixel limit; a smaller result may
    /// take a larger radius, in proportion (result pixels × radius is what is bounded).
    static let blurSigmaAtResultLimit = 10.0

    /// The formats whose results keep every frame of an animation. AVIF could (its encoder
    /// writes sequences), but as imgproxy it is chosen for still images only: an AVIF sequence
    /// costs many times a WebP animation's encoding time.
    static let animatedFormats: Set<ImageFormat> = [.gif, .webp, .png]

    /// Formats read as sources but answered in only when asked for by name: browsers show
    /// none of them (imgproxy's preferred formats leave them out too).
    static let sourceOnlyFormats: Set<ImageFormat> = [.tiff, .bmp]

    /// The format `image` is written in: the first enforced format that suits it; else the
    /// requested one; else, among the formats the client accepts, the first that suits it (JPEG
    /// for an opaque still PNG when the options rank that higher); else JPEG for such a PNG when
    /// the options say so; else the source's, unless it is one of ``sourceOnlyFormats`` (then
    /// ``fallbackFormat(of:)``).
    /// Any format suits a still image, only ``animatedFormats`` an animation (which
    /// must not stop moving because the client also takes AVIF).
    static func outputFormat(of image: Image, options: ProcessingOptions) -> ImageFormat {
        let animated = image.frames.count > 1
        // JPEG has no alpha: a transparent image is never chosen into it (thumbor's AUTO_JPG).
        let suits = { (format: ImageFormat) in
            (!animated || animatedFormats.contains(format)) && (format != .jpeg || !image.pixels.hasTransparency)
        }
        if let enforced = options.enforcedFormats.first(where: suits) { return enforced }
        if let format = options.format { return format }
        if animated, options.animationsKeepFormat { return image.format }
        let opaquePNGAsJPEG = options.opaquePNGToJPEG && image.format == .png && !animated && !image.pixels.hasTransparency
        if let accepted = options.acceptedFormats.first(where: suits) {
            return opaquePNGAsJPEG && options.formatsOpaquePNGToJPEGOutranks.contains(accepted) ? .jpeg : accepted
        }
        if opaquePNGAsJPEG { return .jpeg }
        return sourceOnlyFormats.contains(image.format) ? fallbackFormat(of: image) : image.format
    }

    /// What an image is written in when its own format is not answered in: PNG for a TIFF (a
    /// lossless source stays lossless, as thumbor answers it; one rule for both URL forms keeps
    /// them one cache entry), a drawing or a transparent image, JPEG for any other.
    static func fallbackFormat(of image: Image) -> ImageFormat {
        image.format == .tiff || image.format.isVector || image.pixels.hasTransparency ? .png : .jpeg
    }

    /// `image` encoded in the ``outputFormat(of:options:)`` (the ``fallbackFormat(of:)``
    /// when the source's format cannot be written), carrying the EXIF block `exif` where the
    /// format has a place for it.
    private func encode(_ image: Image, options: ProcessingOptions, exif: [UInt8]?) throws(ProcessingError) -> ProcessedImage {
        var format = Self.outputFormat(of: image, options: options)
        if format == .gif, let container = options.gifVideo {
            throw .unsupported("gifv(\(container)): writing a GIF result as video needs a video encoder, which this server does not have")
        }
        if !coders.canEncode(format) {
            guard options.format == nil else { throw .unsupported("no encoder for \(format)") }
            format = Self.fallbackFormat(of: image)
        }
        let quality = options.quality > 0 ? options.quality : options.formatQuality[format].flatMap { $0 > 0 ? $0 : nil }
            ?? configuration.quality
        do {
            // imgproxy's max_bytes lowers only the quality (down to 10), never the size.
            var encoding = ImageEncodeOptions(quality: Double(quality) / 100, maxFileSize: options.maxBytes > 0 ? options.maxBytes : nil,
                                              shrinksToFitFileSize: false)
            encoding.exif = exif
            let data = try coders.encode(image, as: format, options: encoding)
            return ProcessedImage(data: data, format: format)
        } catch {
            throw .encodingFailed(String(describing: error))
        }
    }
}
