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
            Each URL prints one line: where the image came from (network, file, data, memory, \
            disk, or revalidated when --refresh got 304 Not Modified), the time, the size, and \
            the file written. On a terminal a progress line shows the downloads under way. In \
            text mode a summary line ends the output; --quiet prints only errors, --json \
            one object per URL and no summary.
            Saved images keep their format and animation unless --format asks for another \
            (JPEG keeps the first frame); --resize and --thumbnail resize every frame.
            Exit status: 0 when every URL loaded, 1 when any failed, 64 for bad arguments \
            (a bad URL, an unreadable -i list).
            Examples:
              webimage get https://example.com/cat.jpg -o out --thumbnail 256
              webimage get https://example.com/cat.gif -o out \\
                  --resize 200x200 --mode aspect-fill --format webp
              webimage get -i urls.txt -o out --quality 80
              webimage get --json --no-cache https://example.com/a.png photo.jpg
            """)

    @Argument(help: "The URLs to load: http(s), file or data URLs, or file paths.")
    var urls: [String] = []

    @Option(name: [.customShort("i"), .customLong("input-file")],
            help: ArgumentHelp("Also load the URLs in this file, one a line ('#' starts a comment; - reads standard input).",
                               valueName: "FILE"))
    var inputFile: String?

    @Option(name: .shortAndLong, help: ArgumentHelp("Save each image into this folder.", valueName: "DIR"))
    var output: String?

    @Option(help: ArgumentHelp("Decode to fit this many pixels on the long side (never larger).", valueName: "N"))
    var thumbnail: Int?

    @Option(help: ArgumentHelp("Resize each image (every frame of an animation) after decoding (Lanczos).", valueName: "WxH"))
    var resize: ResizeSize?

    @Option(help: "How --resize fits the image: fill (stretch), fit (letterbox) or aspect-fill (crop).")
    var mode: ResizeMode = .fit

    @Option(help: "Save as this format (default: the downloaded bytes as they are, else the source format).")
    var format: OutputFormat?

    @Option(help: ArgumentHelp("Quality of lossy output, 0 to 100 (a fraction below 1, such as 0.85, is read as 85).",
                               valueName: "Q"))
    var quality = EncodingQuality(percent: 90)

    @OptionGroup var cache: CacheFolderOptions

    @Flag(help: "Neither read nor write any cache.")
    var noCache = false

    @Flag(help: "Revalidate cached images with the server (ETag / Last-Modified): SDWebImage's refreshCached.")
    var refresh = false

    @Option(name: .customShort("j"), help: ArgumentHelp("How many images load at once.", valueName: "N"))
    var jobs: Int = 6

    @Option(help: ArgumentHelp("Give up on a download after this many seconds without data.", valueName: "SECONDS"))
    var timeout: Double = HTTPImageDownloader.Configuration.defaultTimeout

    @Flag(help: "Accept any server certificate (self-signed, expired, another name): SDWebImage's allowInvalidSSLCertificates.")
    var insecure = false

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    @Flag(help: "Print one JSON object per URL instead of text.")
    var json = false

    @Flag(help: "With each error, also print its underlying cause (the HTTP, TLS or system library's own words).")
    var verbose = false

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("-j must be at least 1") }
        guard timeout > 0 && timeout.isFinite else { throw ValidationError("--timeout must be a number of seconds above 0") }
        if let thumbnail, thumbnail < 1 { throw ValidationError("--thumbnail must be at least 1") }
        guard !urls.isEmpty || inputFile != nil else { throw ValidationError("give the URLs to load, or -i FILE") }
    }

    func run() async throws {
        WebImageCommand.prepareCoders()
        let saver = try output.map {
            try ImageSaver(folder: $0, format: format, quality: quality.fraction, keepsDownloadedBytes: thumbnail == nil && resize == nil)
        }
        let imageCache = try await openImageCache()
        let storesOnDisk = !noCache && cache.isWritable
        if !noCache && !storesOnDisk && !quiet {
            FileHandle.standardError.write(Data(
                "webimage: the cache folder \(cache.folder.path) is read-only: images are read from it but not stored\n".utf8))
        }
        let configuration = HTTPImageDownloader.Configuration(maxConcurrentDownloads: jobs, downloadTimeout: timeout)
        let downloader = HTTPImageDownloader(configuration: configuration)
        let loaders = ImageLoaders.standard(downloader: downloader)
        var arguments = urls
        var targets: [URL] = []
        do throws(ValidationError) {
            if let inputFile { arguments += try URLListFile.read(inputFile) }
            if arguments.isEmpty { throw ValidationError("\(inputFile ?? "-") lists no URLs") }
            for argument in arguments { targets.append(try InputURL.url(for: argument, loaders: loaders)) }
        } catch {
            try await downloader.shutdown()
            throw CommandFailure.usage(error)
        }
        let manager = ImageManager(imageCache: imageCache, imageLoader: loaders)
        let context = context(storingOnDisk: storesOnDisk)
        let display = GetDisplay(total: arguments.count, mode: json ? .json : quiet ? .quiet : .text, verbose: verbose)
        let failures = await withTaskGroup(of: Bool.self) { group in
            var pending = zip(arguments, targets).enumerated().makeIterator()
            var failures = 0
            func startNext() {
                guard let (index, (argument, url)) = pending.next() else { return }
                group.addTask {
                    await load(argument, url: url, index: index, manager: manager, context: context, display: display, saver: saver)
                }
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
    private func load(_ argument: String, url: URL, index: Int, manager: ImageManager, context: ImageContext,
                      display: GetDisplay, saver: ImageSaver?) async -> Bool {
        let start = ContinuousClock.now
        do {
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
        if insecure { options.insert(.allowInvalidSSLCertificates) }
        // The resize was asked for explicitly: an animation is resized frame by frame.
        if resize != nil { options.insert(.transformAnimatedImage) }
        if format == nil && output != nil { options.insert(.queryMemoryData) }
        return options
    }

    /// The caches the loads go through: none with `--no-cache`; otherwise a memory tier sized
    /// for a command, which loads each URL about once (so decoded originals need not pile up,
    /// but a URL given twice is decoded once), over the disk cache in the folder.
    private func openImageCache() async throws -> any ImageCaching {
        if noCache { return ImageCachesManager(caches: []) }
        let disk = try await CommandFailure.reporting { try cache.openCache(cache.folder, configuration: DiskCache.Configuration(), writing: false) }
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
