import ArgumentParser
import Foundation
import Logging
import Metrics
import Prometheus
import WebImage
import WebImageCodecs
import WebImageServer

/// `webimage serve`: an imgproxy-compatible image server on WebImage's pipeline.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve images resized and converted from imgproxy (or thumbor) URLs.",
        discussion: """
            URLs are imgproxy's: /SIGNATURE/OPTIONS/plain/SOURCE-URL[@EXT] or \
            /SIGNATURE/OPTIONS/BASE64-SOURCE-URL[.EXT]. With a key and salt the signature is \
            checked (403 when wrong); without, the signature segment may be anything. Sources \
            whose addresses are loopback or private are refused unless allowed, checked on the \
            address connected to and on every redirect. /health answers 200; /metrics gives \
            Prometheus metrics. SIGTERM or SIGINT lets requests under way finish, then exits 0. \
            Every option also comes from its environment variable (imgproxy's names where imgproxy \
            has the setting; lists comma-separated); a flag wins over its variable. With --redis, \
            instances share source bytes and results through Redis (memory → local disk → Redis → \
            origin); when Redis is down or slow, requests go on from the local caches and the origin. \
            With --use-s3, s3://BUCKET/KEY sources are read from S3-compatible object storage \
            (--s3-endpoint for MinIO, Ceph RGW, R2, GCS); with --result-storage s3://BUCKET/PREFIX, \
            results are shared through a bucket too, below Redis, written in the background.
            thumbor's URLs are answered too (--url-format both, the default): /unsafe/[AxB:CxD/]\
            [fit-in/][-]Wx[-]H/[halign/][valign/][smart/][filters:…/]IMAGE-URL, signed with \
            --thumbor-key (or THUMBOR_SECURITY_KEY) in place of unsafe. A path is thumbor's when \
            its first segment is unsafe or a 28-character signature ending in =; any key set \
            means every URL must be signed.
            Without arguments it listens on 127.0.0.1:8080, serves local:/// sources from the \
            current folder, unsigned, and prints an example URL:
              cd ./photos && webimage serve
              curl -o cat.webp http://127.0.0.1:8080/insecure/rs:fit:300:300/plain/local:///cat.jpg@webp
            """)

    @Option(help: .setting("bind")) var bind: String?
    @Option(help: .setting("timeout")) var timeout: String?
    @Option(help: .setting("read-request-timeout")) var readRequestTimeout: String?
    @Option(help: .setting("max-clients")) var maxClients: String?
    @Option(help: .setting("allow-origin")) var allowOrigin: String?
    @Option(help: .setting("path-prefix")) var pathPrefix: String?
    @Option(help: .setting("url-format")) var urlFormat: String?
    @Option(help: .setting("key")) var key: [String] = []
    @Option(help: .setting("salt")) var salt: [String] = []
    @Option(help: .setting("signature-size")) var signatureSize: String?
    @Option(help: .setting("trusted-signature")) var trustedSignature: [String] = []
    @Option(help: .setting("thumbor-key")) var thumborKey: String?
    @Flag(help: .setting("thumbor-allow-unsafe-url")) var thumborAllowUnsafeUrl = false
    @Option(help: .setting("preset")) var preset: [String] = []
    @Flag(help: .setting("only-presets")) var onlyPresets = false
    @Option(help: .setting("allowed-processing-options")) var allowedProcessingOptions: [String] = []
    @Option(help: .setting("arguments-separator")) var argumentsSeparator: String?
    @Option(help: .setting("base-url")) var baseUrl: String?
    @Option(help: .setting("url-replacement")) var urlReplacement: [String] = []
    @Flag(help: .setting("base64-url-includes-filename")) var base64UrlIncludesFilename = false
    @Option(help: .setting("allowed-sources")) var allowedSources: [String] = []
    @Flag(help: .setting("allow-loopback-sources")) var allowLoopbackSources = false
    @Flag(help: .setting("allow-private-sources")) var allowPrivateSources = false
    @Option(help: .setting("thumbor-loader")) var thumborLoader: String?
    @Option(help: .setting("local-root")) var localRoot: String?
    @Option(help: .setting("download-timeout")) var downloadTimeout: String?
    @Option(help: .setting("max-redirects")) var maxRedirects: String?
    @Option(help: .setting("max-src-resolution")) var maxSrcResolution: String?
    @Option(help: .setting("max-src-file-size")) var maxSrcFileSize: String?
    @Option(help: .setting("max-animation-frames")) var maxAnimationFrames: String?
    @Option(help: .setting("max-animation-frame-resolution")) var maxAnimationFrameResolution: String?
    @Flag(help: .setting("allow-security-options")) var allowSecurityOptions = false
    @Option(help: .setting("max-result-resolution")) var maxResultResolution: String?
    @Option(help: .setting("thumbor-max-width")) var thumborMaxWidth: String?
    @Option(help: .setting("thumbor-max-height")) var thumborMaxHeight: String?
    @Option(help: .setting("concurrency")) var concurrency: String?
    @Option(help: .setting("max-queue")) var maxQueue: String?
    @Option(help: .setting("quality")) var quality: String?
    @Option(help: .setting("ttl")) var ttl: String?
    @Option(help: .setting("use-etag")) var useEtag: String?
    @Option(help: .setting("use-last-modified")) var useLastModified: String?
    @Option(help: .setting("last-modified-buster")) var lastModifiedBuster: String?
    @Flag(help: .setting("cache-control-passthrough")) var cacheControlPassthrough = false
    @Flag(help: .setting("auto-webp")) var autoWebp = false
    @Flag(help: .setting("auto-avif")) var autoAvif = false
    @Option(help: .setting("skip-processing-formats")) var skipProcessingFormats: [String] = []
    @Option(help: .setting("keep-copyright")) var keepCopyright: String?
    @Flag(help: .setting("thumbor-preserve-exif-copyright-info")) var thumborPreserveExifCopyrightInfo = false
    @Option(help: .setting("svg-dpi")) var svgDpi: String?
    @Flag(help: .setting("always-rasterize-svg")) var alwaysRasterizeSvg = false
    @Flag(help: .setting("enforce-webp")) var enforceWebp = false
    @Flag(help: .setting("enforce-avif")) var enforceAvif = false
    @Flag(help: .setting("enable-client-hints")) var enableClientHints = false
    @Flag(help: .setting("auto-jxl")) var autoJxl = false
    @Flag(help: .setting("enforce-jxl")) var enforceJxl = false
    @Flag(help: .setting("auto-heif")) var autoHeif = false
    @Flag(help: .setting("auto-jpg")) var autoJpg = false
    @Flag(help: .setting("auto-png")) var autoPng = false
    @Flag(help: .setting("auto-png-to-jpg")) var autoPngToJpg = false
    @Option(help: .setting("auto-image-format-preference")) var autoImageFormatPreference: String?
    @Option(help: .setting("watermark-path")) var watermarkPath: String?
    @Option(help: .setting("watermark-url")) var watermarkUrl: String?
    @Option(help: .setting("watermark-data")) var watermarkData: String?
    @Option(help: .setting("watermark-opacity")) var watermarkOpacity: String?
    @Option(help: .setting("fallback-image-path")) var fallbackImagePath: String?
    @Option(help: .setting("fallback-image-url")) var fallbackImageUrl: String?
    @Option(help: .setting("fallback-image-data")) var fallbackImageData: String?
    @Option(help: .setting("fallback-image-http-code")) var fallbackImageHttpCode: String?
    @Option(help: .setting("fallback-image-ttl")) var fallbackImageTtl: String?
    @Option(help: .setting("cache-dir")) var cacheDir: String?
    @Option(help: .setting("cache-size")) var cacheSize: String?
    @Option(help: .setting("redis")) var redis: String?
    @Option(help: .setting("redis-ttl")) var redisTtl: String?
    @Flag(help: .setting("use-s3")) var useS3 = false
    @Option(help: .setting("s3-endpoint")) var s3Endpoint: String?
    @Option(help: .setting("s3-region")) var s3Region: String?
    @Option(help: .setting("s3-path-style")) var s3PathStyle: String?
    @Option(help: .setting("s3-access-key-id")) var s3AccessKeyId: String?
    @Option(help: .setting("s3-secret-access-key")) var s3SecretAccessKey: String?
    @Option(help: .setting("s3-session-token")) var s3SessionToken: String?
    @Option(help: .setting("result-storage")) var resultStorage: String?
    @Option(help: .setting("log-interval")) var logInterval: String?
    @Option(help: .setting("log-level")) var logLevel: String?

    /// The flags given, by setting: a repeated option's values joined as its variable lists
    /// them, a switch as `true`.
    private var givenFlags: [(flag: String, text: String?)] {
        func joined(_ values: [String]) -> String? { values.isEmpty ? nil : values.joined(separator: ",") }
        func on(_ isOn: Bool) -> String? { isOn ? "true" : nil }
        return [
            ("bind", bind), ("timeout", timeout), ("read-request-timeout", readRequestTimeout), ("max-clients", maxClients), ("allow-origin", allowOrigin), ("path-prefix", pathPrefix), ("url-format", urlFormat), ("key", joined(key)), ("salt", joined(salt)),
            ("signature-size", signatureSize), ("trusted-signature", joined(trustedSignature)), ("thumbor-key", thumborKey),
            ("thumbor-allow-unsafe-url", on(thumborAllowUnsafeUrl)), ("preset", joined(preset)), ("only-presets", on(onlyPresets)),
            ("allowed-processing-options", joined(allowedProcessingOptions)), ("arguments-separator", argumentsSeparator),
            ("base-url", baseUrl), ("url-replacement", urlReplacement.isEmpty ? nil : urlReplacement.joined(separator: ";")),
            ("base64-url-includes-filename", on(base64UrlIncludesFilename)),
            ("allowed-sources", joined(allowedSources)), ("allow-loopback-sources", on(allowLoopbackSources)),
            ("allow-private-sources", on(allowPrivateSources)), ("thumbor-loader", thumborLoader), ("local-root", localRoot),
            ("download-timeout", downloadTimeout), ("max-redirects", maxRedirects), ("max-src-resolution", maxSrcResolution),
            ("max-src-file-size", maxSrcFileSize), ("max-animation-frames", maxAnimationFrames),
            ("max-animation-frame-resolution", maxAnimationFrameResolution),
            ("allow-security-options", on(allowSecurityOptions)), ("max-result-resolution", maxResultResolution),
            ("thumbor-max-width", thumborMaxWidth), ("thumbor-max-height", thumborMaxHeight), ("concurrency", concurrency), ("max-queue", maxQueue),
            ("quality", quality), ("ttl", ttl), ("use-etag", useEtag), ("use-last-modified", useLastModified),
            ("last-modified-buster", lastModifiedBuster), ("cache-control-passthrough", on(cacheControlPassthrough)), ("auto-webp", on(autoWebp)), ("auto-avif", on(autoAvif)),
            ("skip-processing-formats", joined(skipProcessingFormats)), ("keep-copyright", keepCopyright),
            ("thumbor-preserve-exif-copyright-info", on(thumborPreserveExifCopyrightInfo)), ("svg-dpi", svgDpi), ("always-rasterize-svg", on(alwaysRasterizeSvg)),
            ("enforce-webp", on(enforceWebp)), ("enforce-avif", on(enforceAvif)),
            ("enable-client-hints", on(enableClientHints)), ("auto-jxl", on(autoJxl)), ("enforce-jxl", on(enforceJxl)),
            ("auto-heif", on(autoHeif)), ("auto-jpg", on(autoJpg)), ("auto-png", on(autoPng)), ("auto-png-to-jpg", on(autoPngToJpg)),
            ("auto-image-format-preference", autoImageFormatPreference),
            ("watermark-path", watermarkPath), ("watermark-url", watermarkUrl), ("watermark-data", watermarkData),
            ("watermark-opacity", watermarkOpacity), ("fallback-image-path", fallbackImagePath),
            ("fallback-image-url", fallbackImageUrl), ("fallback-image-data", fallbackImageData),
            ("fallback-image-http-code", fallbackImageHttpCode), ("fallback-image-ttl", fallbackImageTtl),
            ("cache-dir", cacheDir), ("cache-size", cacheSize), ("redis", redis), ("redis-ttl", redisTtl),
            ("use-s3", on(useS3)), ("s3-endpoint", s3Endpoint), ("s3-region", s3Region), ("s3-path-style", s3PathStyle),
            ("s3-access-key-id", s3AccessKeyId), ("s3-secret-access-key", s3SecretAccessKey), ("s3-session-token", s3SessionToken),
            ("result-storage", resultStorage), ("log-interval", logInterval), ("log-level", logLevel),
        ]
    }

    /// The configuration `environment` describes with the flags laid over it; `local:///`
    /// sources come from the current folder when no root is set and the server listens on loopback.
    func configuration(_ environment: [String: String]) throws(ConfigurationError) -> ImageServer.Configuration {
        var configuration = try ImageServer.Configuration(environment: environment)
        for case let (flag, text?) in givenFlags {
            try configuration.set(flag: flag, to: text)
        }
        if configuration.localRoot == nil, configuration.listensOnLoopback {
            configuration.localRoot = FileManager.default.currentDirectoryPath
        }
        return configuration
    }

    func run() async throws {
        MallocTuning.returnLargeBlocks(environment: ProcessInfo.processInfo.environment)
        WebImageCommand.prepareCoders()
        let configuration = try await CommandFailure.reporting { try self.configuration(ProcessInfo.processInfo.environment) }
        // One line a request: formatted once, written to standard error in batches (within a
        // tenth of a second by default, and all of them before the command returns).
        let logLines = LogLineBuffer(interval: .milliseconds(Int((configuration.logInterval * 1000).rounded())))
        defer { logLines.flush() }
        LoggingSystem.bootstrap { label in
            var handler = BufferedLogHandler(label: label, buffer: logLines)
            handler.logLevel = configuration.logLevel
            return handler
        }
        // Once per process, before any handle exists: everything counted through swift-metrics,
        // in any module, lands in this registry, which /metrics shows.
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        let tier = try await CommandFailure.reporting { try SharedTier(configuration) }
        let storage = try await CommandFailure.reporting { try ObjectStorageTier(configuration) }
        let extensions = ImageServer.Extensions(
            sharedSources: tier?.sources, sharedResults: [tier?.results as (any ImageCaching)?, storage?.results].compactMap { $0 },
            loaders: [storage?.loader as (any ImageLoader)?].compactMap { $0 }, metricsRegistry: registry)
        let server = try await CommandFailure.reporting { try await ImageServer(configuration: configuration, extensions: extensions) }
        do {
            try await server.run { port in
                var lines = "webimage serve: listening on \(ServeExample.baseURL(host: server.host, port: port))\n"
                if let example = ServeExample(responder: server.responder, host: server.host, port: port) {
                    lines += "webimage serve: example: \(example.url)\n"
                }
                FileHandle.standardOutput.write(Data(lines.utf8))
            }
        } catch {
            await shutDown(server, storage: storage, tier: tier)
            throw error
        }
        await shutDown(server, storage: storage, tier: tier)
    }

    /// Closes what `server` and the tiers opened, once it has stopped.
    private func shutDown(_ server: ImageServer, storage: ObjectStorageTier?, tier: SharedTier?) async {
        try? await server.shutdown()
        await storage?.shutdown()
        await tier?.client.close()
    }
}

extension ArgumentHelp {
    /// The help of the server setting `flag`, in the words and with the default
    /// ``ImageServer/Configuration/settings`` gives it.
    static func setting(_ flag: String) -> ArgumentHelp {
        guard let setting = ImageServer.Configuration.settings.first(where: { $0.flag == flag }) else {
            return ArgumentHelp("(no such setting: \(flag))")
        }
        return ArgumentHelp(setting.help, valueName: setting.valueName)
    }
}
