import Foundation
import WebImage
import WebImageCodecs
import WebImageQuantization

extension ImageServer {
    /// The server `configuration` describes, with `extensions`' shared caches, loaders and
    /// metrics: its URL router, its source downloader (held to the configured address policy),
    /// its caches (memory and disk for sources, disk for results, each keeping half of
    /// `--cache-size`, the shared ones after them), its codec threads and processor, and its
    /// responder. Call ``shutdown()`` once it has stopped serving.
    public init(configuration: Configuration, extensions: Extensions = Extensions()) async throws(ImageServerStartError) {
        let router = try Self.router(configuration)
        var downloads = HTTPImageDownloader.Configuration(
            downloadTimeout: configuration.sources.downloadTimeout, wholeDownloadTimeout: configuration.sources.downloadTimeout,
            maxBytes: configuration.limits.maxSrcFileSize, maxRedirects: configuration.sources.maxRedirects)
        if let userAgent = configuration.sources.userAgent { downloads.setValue(userAgent, forHTTPHeaderField: "User-Agent") }
        downloads.allowInvalidSSLCertificates = configuration.sources.ignoreSSLVerification
        downloads.connectionIdleTimeout = configuration.sources.clientKeepAliveTimeout
        try Self.connectSources(through: configuration.sources, &downloads)
        let downloader = HTTPImageDownloader(
            configuration: downloads,
            addressPolicy: SourceAddressPolicy(allowsLoopback: configuration.sources.allowLoopbackSources,
                                               allowsPrivate: configuration.sources.allowPrivateSources),
            tracer: extensions.tracer)
        // Decoding, transforming and encoding run on threads of their own, one per image made at
        // once: Swift's cooperative pool stays free for requests, /health and cache hits.
        let codecs = CodecExecutor(threads: configuration.limits.concurrency, name: "serve-codec")
        let processor: ImageProcessor
        do throws(ImageServerStartError) {
            processor = try await Self.processor(configuration, extensions: extensions, downloader: downloader, codecs: codecs)
        } catch {
            codecs.shutdown()
            try? await downloader.shutdown()
            throw error
        }
        let responder = ImageServerResponder(router: router, processor: processor, configuration: configuration,
                                             logger: extensions.logger, metricsRegistry: extensions.metricsRegistry)
        self.init(responder: responder, downloader: downloader, codecs: codecs, services: extensions.services)
    }

    /// Sets `downloads`' proxy and TLS as `sources` say; throws when a proxy host has no port,
    /// a client certificate no key (or the other way round), or a file cannot be read.
    private static func connectSources(through sources: Configuration.SourceSettings,
                                       _ downloads: inout HTTPImageDownloader.Configuration) throws(ImageServerStartError) {
        do {
            downloads.proxy = try sources.proxyRule()
            if let file = sources.caCertificatesFile { downloads.trustedCertificates = try HTTPClientCertificate.certificates(inPEMFile: file) }
            switch (sources.clientCertificateFile, sources.clientKeyFile) {
            case (let certificate?, let key?):
                downloads.clientCertificate = try HTTPClientCertificate(certificateFile: certificate, privateKeyFile: key)
            case (nil, nil): break
            default: throw SettingValueError(reason: "--source-client-cert and --source-client-key go together")
            }
        } catch let error as SettingValueError {
            throw .sourceConnection(error.reason)
        } catch {
            throw .sourceConnection("\(error)")
        }
    }

    /// The router of `configuration`'s URL forms, parsers and signers.
    private static func router(_ configuration: Configuration) throws(ImageServerStartError) -> ProcessingURLRouter {
        let signer: URLSigner
        let parser: ProcessingURLParser
        do throws(URLSignatureError) {
            signer = try URLSigner(configuration.urls)
        } catch {
            throw .signing(error)
        }
        do throws(ProcessingURLError) {
            parser = try ProcessingURLParser(configuration.urls, output: configuration.output, limits: configuration.limits)
        } catch {
            throw .presets(error)
        }
        var thumborParser = ThumborURLParser(limits: parser.limits, loader: configuration.sources.thumborLoader,
                                             opaquePNGToJPEG: configuration.formats.autoPngToJpg,
                                             sourceBound: configuration.limits.thumborSourceBound,
                                             preservesCopyright: configuration.output.thumborPreserveExifCopyrightInfo,
                                             progressiveJPEG: configuration.output.thumborProgressiveJPEG)
        thumborParser.respectsOrientation = configuration.output.thumborRespectOrientation
        thumborParser.preservesEXIF = configuration.output.thumborPreserveExifInfo
        thumborParser.formatQuality = configuration.output.formatQuality
        thumborParser.defaultQuality = configuration.output.quality
        return ProcessingURLRouter(format: configuration.urls.urlFormat, imgproxyParser: parser, imgproxySigner: signer,
                                   thumborParser: thumborParser, thumborSigner: ThumborURLSigner(configuration.urls))
    }

    /// The processor of `configuration`: sources through `downloader` and `extensions`' loaders
    /// into the source caches, results into the result caches, image work on `codecs`.
    private static func processor(_ configuration: Configuration, extensions: Extensions, downloader: HTTPImageDownloader,
                                  codecs: CodecExecutor) async throws(ImageServerStartError) -> ImageProcessor {
        let cacheFolder = configuration.caches.cacheDir.map { URL(fileURLWithPath: $0, isDirectory: true) }
        let folders = Configuration.cacheSubfolders
        // Each disk cache keeps half the bound, trimmed every minute.
        let bounded = DiskCache.Configuration(maxSize: configuration.caches.cacheSize / 2, autoTrimInterval: 60)
        let sourceDisk: DiskCache
        let resultDisk: DiskCache?
        do throws(DiskCacheError) {
            sourceDisk = try DiskCache(directory: cacheFolder?.appendingPathComponent(folders.sources)
                                       ?? DiskCache.defaultDirectory(namespace: "webimage-serve-sources"), configuration: bounded)
            resultDisk = try cacheFolder.map { folder throws(DiskCacheError) in
                try DiskCache(directory: folder.appendingPathComponent(folders.results), configuration: bounded)
            }
        } catch {
            throw .cacheFolder(error)
        }
        let localSources = ImageCache(memory: MemoryCache(costLimit: 64 << 20), disk: sourceDisk)
        // The cache added last is asked first: local memory and disk, then the shared one; stores go to both.
        let sourceCache: any ImageCaching = extensions.sharedSources.map {
            ImageCachesManager(caches: [$0, localSources], storePolicy: .all)
        } ?? localSources
        let sharedResults: (any ImageCaching)? = extensions.sharedResults.count > 1
            ? ImageCachesManager(caches: extensions.sharedResults.reversed(), storePolicy: .all) : extensions.sharedResults.first
        // The manager fetches source bytes only (`data(for:)`); the processor decodes them on codec threads.
        let loaders = ImageLoaders.standard(downloader: downloader)
        for loader in extensions.loaders { loaders.add(loader) }
        // The coders registered now, in a registry of the server's own: SVG's absolute units at
        // the configured dpi, palette PNGs through libimagequant and the encoders' efforts (a
        // coder added last is asked first) touch no other server's.
        let coders = ImageCoders(ImageCoders.shared.all.reversed())
        let output = configuration.output
        coders.replace(with: SVGCoder(dpi: output.svgDPI))
        coders.replace(with: PNGCoder(quantizer: ImageQuantQuantizer()))
        coders.replace(with: WebPCoder(effort: output.webpEffort, preset: output.webpPreset))
        coders.replace(with: AVIFCoder(speed: output.avifSpeed))
        coders.replace(with: JXLCoder(effort: output.jxlEffort))
        let manager = ImageManager(imageCache: sourceCache, imageLoader: loaders, coders: coders)
        // The watermark and the fallback image, loaded once, a URL through the same downloader.
        let auxiliary: AuxiliaryImages
        do throws(AuxiliaryImageError) {
            auxiliary = try await AuxiliaryImages.load(configuration, manager: manager)
        } catch {
            throw .auxiliaryImage(error)
        }
        let metrics = ServerMetrics(factory: extensions.countingFactory(namespace: configuration.metrics.namespace))
        return ImageProcessor(manager: manager, configuration: configuration, coders: coders, disk: resultDisk,
                              sharedCache: sharedResults, metrics: metrics,
                              executor: codecs, auxiliary: auxiliary, tracer: extensions.tracer)
    }
}
