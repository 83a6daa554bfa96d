import ArgumentParser
import Foundation
import WebImage

/// `webimage get`: loads images through the manager, as an app would, and says where each
/// came from.
struct GetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Load images by URL through the cache and the downloader; optionally save them.",
        discussion: """
            Each URL prints one line: where the image came from (network, memory, disk, or \
            revalidated when --refresh got 304 Not Modified), the time, the size, and the file \
            written. On a terminal a progress line shows the downloads under way.
            Exit status: 0 when every URL loaded, 1 when any failed, 64 for bad arguments.
            Examples:
              webimage get https://example.com/cat.jpg -o out --thumbnail 256
              webimage get https://example.com/cat.jpg -o out --resize 200x200 --mode aspect-fill --format webp
              webimage get --json --no-cache https://example.com/a.png https://example.com/b.gif
            """)

    @Argument(help: "The URLs to load: http(s), file or data.")
    var urls: [String]

    @Option(name: .shortAndLong, help: ArgumentHelp("Save each image into this folder.", valueName: "DIR"))
    var output: String?

    @Option(help: ArgumentHelp("Decode to fit this many pixels on the long side (never larger).", valueName: "N"))
    var thumbnail: Int?

    @Option(help: ArgumentHelp("Resize each image to this size after decoding (Lanczos).", valueName: "WxH"))
    var resize: ResizeSize?

    @Option(help: "How --resize fits the image: fill (stretch), fit (letterbox) or aspect-fill (crop).")
    var mode: ResizeMode = .fit

    @Option(help: "Save as this format (default: the downloaded bytes as they are).")
    var format: OutputFormat?

    @Option(help: ArgumentHelp("Quality of lossy output, 0 to 1.", valueName: "Q"))
    var quality: Double = 0.9

    @OptionGroup var cache: CacheFolderOptions

    @Flag(help: "Neither read nor write any cache.")
    var noCache = false

    @Flag(help: "Revalidate cached images with the server (ETag / Last-Modified): SDWebImage's refreshCached.")
    var refresh = false

    @Option(name: .customShort("j"), help: ArgumentHelp("How many images load at once.", valueName: "N"))
    var jobs: Int = 6

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    @Flag(help: "Print one JSON object per URL instead of text.")
    var json = false

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("-j must be at least 1") }
        guard (0...1).contains(quality) else { throw ValidationError("--quality must be between 0 and 1") }
        if let thumbnail, thumbnail < 1 { throw ValidationError("--thumbnail must be at least 1") }
    }

    func run() async throws {
        WebImageCommand.prepareCoders()
        let saver = try output.map {
            try ImageSaver(folder: $0, format: format, quality: quality, keepsDownloadedBytes: thumbnail == nil && resize == nil)
        }
        let imageCache = try await openImageCache()
        let storesOnDisk = !noCache && cache.isWritable
        if !noCache && !storesOnDisk && !quiet {
            FileHandle.standardError.write(Data(
                "webimage: the cache folder \(cache.folder.path) is read-only: images are read from it but not stored\n".utf8))
        }
        let downloader = HTTPImageDownloader(configuration: HTTPImageDownloaderConfiguration(maxConcurrentDownloads: jobs))
        let manager = ImageManager(imageCache: imageCache, imageLoader: ImageLoaders.standard(downloader: downloader))
        let context = context(storingOnDisk: storesOnDisk)
        let display = GetDisplay(total: urls.count, mode: json ? .json : quiet ? .quiet : .text)
        let failures = await withTaskGroup(of: Bool.self) { group in
            var pending = urls.enumerated().makeIterator()
            var failures = 0
            func startNext() {
                guard let (index, url) = pending.next() else { return }
                group.addTask { await load(url, index: index, manager: manager, context: context, display: display, saver: saver) }
            }
            for _ in 0..<jobs { startNext() }
            for await succeeded in group {
                if !succeeded { failures += 1 }
                startNext()
            }
            return failures
        }
        display.end()
        try await downloader.shutdown()
        if failures > 0 { throw ExitCode.failure }
    }

    /// Loads one URL, saves it when asked, and reports it; returns whether it succeeded.
    private func load(_ argument: String, index: Int, manager: ImageManager, context: ImageContext,
                      display: GetDisplay, saver: ImageSaver?) async -> Bool {
        let start = ContinuousClock.now
        do {
            guard let url = URL(string: argument), url.scheme != nil else { throw WebImageError.invalidURL(argument) }
            var result: ImageResult?
            for try await event in manager.events(for: url, options: options, context: context) {
                switch event {
                case .progress(let progress): display.progress(index, progress)
                case .finished(let final): result = final
                case .partialImage, .cachedImage: break
                }
            }
            guard let result else { throw WebImageError.cancelled }
            let saved = try saver?.save(result, index: index)
            display.loaded(argument, result: result, time: ContinuousClock.now - start, savedTo: saved)
            return true
        } catch {
            display.failed(argument, error: error, time: ContinuousClock.now - start)
            return false
        }
    }

    private var options: WebImageOptions {
        // A process that exits must not leave cache writes behind.
        var options: WebImageOptions = .waitStoreCache
        if refresh { options.insert(.refreshCached) }
        if format == nil && output != nil { options.insert(.queryMemoryData) }
        return options
    }

    /// The caches the loads go through: none with `--no-cache`; otherwise a memory tier sized
    /// for a command, which loads each URL about once (so decoded originals need not pile up,
    /// but a URL given twice is decoded once), over the disk cache in the folder.
    private func openImageCache() async throws -> any ImageCaching {
        if noCache { return ImageCachesManager(caches: []) }
        let disk = try await CommandFailure.reporting { try cache.openCache(configuration: DiskCache.Configuration(), writing: false) }
        return ImageCache(memory: MemoryCache(costLimit: Self.memoryCostLimit), disk: disk)
    }

    /// The memory tier's limit: one 12-megapixel image and then some.
    private static let memoryCostLimit = 64 << 20

    /// How each URL loads; a cache folder the process cannot write is not stored into.
    private func context(storingOnDisk: Bool) -> ImageContext {
        var context = ImageContext()
        if let thumbnail { context.decodeOptions = ImageDecodeOptions(thumbnailPixelSize: PixelSize(thumbnail)) }
        if let resize { context.transformer = .resize(size: resize.size, mode: mode.scaleMode) }
        if noCache {
            context.queryCacheType = ImageCacheType.none
            context.storeCacheType = ImageCacheType.none
            context.originalStoreCacheType = ImageCacheType.none
        } else if !storingOnDisk {
            context.storeCacheType = .memory
            context.originalStoreCacheType = .memory
        }
        return context
    }
}
