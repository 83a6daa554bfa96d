import Dispatch
import Foundation
import WebImage

/// Turns parsed imgproxy URLs into encoded images through an ``ImageManager``: the source is
/// loaded (and its bytes cached) by the manager, decoded at a reduced size when the output is
/// smaller, transformed by a ``ProcessingTransformer`` once its output size is known to be within
/// the limit, encoded, and the result cached under the URL's canonical key, in memory and, when
/// given, on disk and in a cache shared with other instances.
///
/// Results are looked up memory → local disk → shared cache, and a hit below memory is written
/// back to the tiers above (to the disk in the background); only when all miss is the result made. Sources are the manager's:
/// give it an ``ImageCachesManager`` that chains a shared tier below its local cache, and the
/// instances fetch each source once between them too.
public final class ImageProcessor: Sendable {
    /// Loads and decodes sources, coalescing identical loads.
    public let manager: ImageManager
    /// Encodes results.
    public let coders: ImageCoders
    /// The folder `local:///path` sources are read from, or nil to refuse them.
    public let localRoot: URL?
    /// The quality 1…100 used when a URL gives none (imgproxy's default is 80).
    public let defaultQuality: Int
    /// Which addresses `http(s)` sources may resolve to.
    public let sourcePolicy: SourceAddressPolicy
    /// Prefixes a source URL must start with (imgproxy's `IMGPROXY_ALLOWED_SOURCES`); empty allows any.
    public let allowedSources: [String]
    /// The most pixels a decoded source frame may have, 50 megapixels by default (as imgproxy's
    /// `IMGPROXY_MAX_SRC_RESOLUTION`, but counted after shrink-on-load: a large JPEG asked for
    /// as a small `fit` decodes small and passes).
    public let maxSourcePixels: Int
    /// The most pixels a result may have, all frames together.
    public let maxResultPixels: Int
    /// The slots image work waits for.
    private let slots: ProcessingSlots
    /// Encoded results by canonical key.
    private let memory: MemoryCache<String, ProcessedImage>
    /// Encoded results by canonical key, kept across runs.
    private let disk: DiskCache?
    /// Encoded results by canonical key, shared with other instances (a Redis tier, say): asked
    /// after the local disk, written after a result is made.
    public let sharedCache: (any ImageCaching)?
    /// Writes the shared cache's hits to the local disk after they are answered, one at a time,
    /// off the request path (a file write costs more than the Redis read it saves next time).
    private let writeBack = DispatchQueue(label: "WebImageServer.ImageProcessor.writeBack", qos: .utility)

    /// A processor loading through `manager` the sources `sourcePolicy` and `allowedSources` allow, refusing
    /// sources and results over their pixel limits, making at most `concurrency` results at once
    /// with `maxQueue` more waiting (then ``ProcessingError/busy``), encoding with `coders`,
    /// caching results in memory (up to `memoryLimitBytes`), in `disk` and in `sharedCache`
    /// (its disk tier) when given.
    public init(manager: ImageManager, coders: ImageCoders = .shared, localRoot: URL? = nil, defaultQuality: Int = 80,
                sourcePolicy: SourceAddressPolicy = SourceAddressPolicy(), allowedSources: [String] = [],
                maxSourcePixels: Int = 50_000_000,
                maxResultPixels: Int = 50_000_000, concurrency: Int = 2 * ProcessInfo.processInfo.activeProcessorCount,
                maxQueue: Int = 1000, memoryLimitBytes: Int = 64 << 20, disk: DiskCache? = nil,
                sharedCache: (any ImageCaching)? = nil) {
        slots = ProcessingSlots(concurrency: concurrency, maxQueue: maxQueue)
        self.sourcePolicy = sourcePolicy
        self.allowedSources = allowedSources
        self.maxSourcePixels = maxSourcePixels
        self.maxResultPixels = maxResultPixels
        self.manager = manager
        self.coders = coders
        self.localRoot = localRoot?.standardizedFileURL
        self.defaultQuality = min(max(defaultQuality, 1), 100)
        memory = MemoryCache(costLimit: memoryLimitBytes)
        self.disk = disk
        self.sharedCache = sharedCache
    }

    /// The image `url` describes, from the result cache or made now; `now` is compared with the
    /// URL's `expires`.
    public func process(_ url: ProcessingURL, now: Date = Date()) async throws(ProcessingError) -> ProcessedImage {
        let options = url.options
        if let expires = options.expires, now.timeIntervalSince1970 > Double(expires) { throw .expired }
        if options.gravity.kind == .smart || options.crop?.gravity?.kind == .smart {
            throw .unsupported("smart gravity (sm)")
        }
        let key = url.cacheKey
        if var cached = memory.value(forKey: key) {
            cached.source = .memory
            return cached
        }
        if let data = disk?.data(forKey: key) {
            let cached = ProcessedImage(data: data, format: ImageFormat(detecting: data), source: .disk)
            memory.setValue(cached, forKey: key, cost: data.count)
            return cached
        }
        if let shared = await sharedResult(forKey: key) {
            memory.setValue(shared, forKey: key, cost: shared.data.count)
            if let disk {
                writeBack.async { try? disk.store(shared.data, forKey: key) }
            }
            return shared
        }
        let result = try await slots.run { () async throws(ProcessingError) -> ProcessedImage in try await make(url) }
        memory.setValue(result, forKey: key, cost: result.data.count)
        try? disk?.store(result.data, forKey: key)
        // Awaited: the next instance asked finds it, and a slow shared tier slows the makers
        // (within its timeouts) rather than piling up writes.
        try? await sharedCache?.store(nil, data: result.data, forKey: key, to: .disk, serializer: nil)
        return result
    }

    /// The result the shared cache holds for `key`, when its bytes are of a known image format
    /// (anything else is taken for a miss and made again).
    private func sharedResult(forKey key: String) async -> ProcessedImage? {
        guard let data = await sharedCache?.diskImageData(forKey: key) else { return nil }
        let format = ImageFormat(detecting: data)
        guard format != .undefined else { return nil }
        return ProcessedImage(data: data, format: format, source: .shared)
    }

    /// The image `url` describes, made now: loaded, checked against the limits, transformed, encoded.
    private func make(_ url: ProcessingURL) async throws(ProcessingError) -> ProcessedImage {
        let options = url.options
        let source = try await load(try await sourceURL(for: url.source), options: options)
        let transformer = ProcessingTransformer(options: options)
        let size = transformer.outputSize(for: source)
        let total = size.area.multipliedReportingOverflow(by: source.frames.count)
        guard !total.overflow, total.partialValue <= maxResultPixels else {
            throw .unprocessable("the result would be \(size) × \(source.frames.count) frame(s), over \(maxResultPixels) pixels")
        }
        let image = transformer.transform(source, forKey: transformer.key) ?? source
        return try encode(image, options: options)
    }

    /// The URL the manager loads, once it starts with one of ``allowedSources`` (when there are
    /// any): an `http(s)` source as it is once ``sourcePolicy`` allows its
    /// addresses, a `local:///path` source as the file below ``localRoot`` (never outside it).
    private func sourceURL(for source: URL) async throws(ProcessingError) -> URL {
        guard allowedSources.isEmpty || allowedSources.contains(where: source.absoluteString.hasPrefix) else {
            throw .forbidden("the source is not among the allowed sources")
        }
        guard source.scheme?.lowercased() == "local" else {
            try await sourcePolicy.check(source)
            return source
        }
        guard let localRoot else { throw .forbidden("local sources are not enabled") }
        let file = localRoot.appendingPathComponent(source.path).standardizedFileURL
        guard file.path.hasPrefix(localRoot.path.hasSuffix("/") ? localRoot.path : localRoot.path + "/") else {
            throw .forbidden("the local path leaves the served folder")
        }
        guard FileManager.default.fileExists(atPath: file.path) else { throw .sourceNotFound }
        return file
    }

    /// The decoded source, reduced on load when the options allow.
    private func load(_ source: URL, options: ProcessingOptions) async throws(ProcessingError) -> Image {
        var context = ImageContext()
        var decodeOptions = Self.decodeOptions(for: options)
        decodeOptions.maxPixels = maxSourcePixels
        context.decodeOptions = decodeOptions
        // The encoded result is what is cached, not decoded pixels; the source's bytes are kept
        // in the disk tiers of the manager's cache (and of a shared tier it chains). Decoded
        // small, the image has a key of its own that never holds anything: the bytes are stored
        // and looked up under the original's key (`originalStoreCacheType`, disk by default).
        // Decoded at full size, the image's key is the original's.
        let shrinks = decodeOptions.thumbnailPixelSize != nil
        context.queryCacheType = shrinks ? ImageCacheType.none : .disk
        context.storeCacheType = shrinks ? ImageCacheType.none : .disk
        let animated = options.format.map { [.gif, .webp, .png].contains($0) } ?? true
        // The bytes are stored before the image is made: an instance asked next finds them.
        let loadOptions: WebImageOptions = animated ? [.waitStoreCache] : [.waitStoreCache, .decodeFirstFrameOnly]
        do {
            return try await manager.image(for: source, options: loadOptions, context: context).image
        } catch {
            throw ProcessingError(loading: error)
        }
    }

    /// Decode options that shrink the source on load when the whole output is known to fit a
    /// box no larger than the source: `fit`, or one side given. Not with a crop, whose pixel
    /// sizes refer to the full-size source, nor with `enlarge`.
    static func decodeOptions(for options: ProcessingOptions) -> ImageDecodeOptions {
        var decode = ImageDecodeOptions()
        guard options.crop == nil, !options.enlarge, options.width > 0 || options.height > 0 else { return decode }
        let width = Int((Double(options.width) * options.dpr).rounded())
        let height = Int((Double(options.height) * options.dpr).rounded())
        let oneSide = width == 0 || height == 0
        guard oneSide || options.resizingType == .fit else { return decode }
        var box = PixelSize(width: width == 0 ? Int(Int32.max) : width, height: height == 0 ? Int(Int32.max) : height)
        if options.rotation % 180 == 90 {
            box = PixelSize(width: box.height, height: box.width)
        }
        decode.thumbnailPixelSize = box
        return decode
    }

    /// `image` encoded in the requested format, or the source's when none was requested (PNG
    /// or JPEG, by transparency, when the source's format cannot be written).
    private func encode(_ image: Image, options: ProcessingOptions) throws(ProcessingError) -> ProcessedImage {
        var format = options.format ?? image.format
        if !coders.canEncode(format) {
            guard options.format == nil else { throw .unsupported("no encoder for \(format)") }
            format = image.pixels.hasTransparency ? .png : .jpeg
        }
        let quality = Double(options.quality > 0 ? options.quality : defaultQuality) / 100
        do {
            let data = try coders.encode(image, as: format, options: ImageEncodeOptions(quality: quality))
            return ProcessedImage(data: data, format: format)
        } catch {
            throw .encodingFailed(String(describing: error))
        }
    }
}
