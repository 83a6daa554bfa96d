import ArgumentParser
import Foundation
import Logging
import Metrics
import Prometheus
import WebImage
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
            Options also come from imgproxy's environment variables: \
            IMGPROXY_BIND, IMGPROXY_KEY, IMGPROXY_SALT, IMGPROXY_SIGNATURE_SIZE, IMGPROXY_TTL, \
            IMGPROXY_QUALITY, IMGPROXY_LOCAL_FILESYSTEM_ROOT, IMGPROXY_PRESETS (comma-separated), \
            IMGPROXY_MAX_SRC_RESOLUTION, IMGPROXY_MAX_SRC_FILE_SIZE, IMGPROXY_MAX_ANIMATION_FRAMES, \
            IMGPROXY_DOWNLOAD_TIMEOUT, IMGPROXY_MAX_REDIRECTS, IMGPROXY_ALLOWED_SOURCES, \
            IMGPROXY_AUTO_WEBP, IMGPROXY_AUTO_AVIF, IMGPROXY_WORKERS, IMGPROXY_REQUESTS_QUEUE_SIZE; and WEBIMAGE_REDIS_URL, \
            WEBIMAGE_REDIS_TTL, WEBIMAGE_LOG_INTERVAL. With --redis, instances share source bytes and results through Redis \
            (memory → local disk → Redis → origin); when Redis is down or slow, requests go on from \
            the local caches and the origin.
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

    @Option(help: "HOST:PORT to listen on; port 0 picks a free one (default: $IMGPROXY_BIND or 127.0.0.1:8080).")
    var bind: String?

    @Option(help: "A signing key in hexadecimal; repeat with --salt for key rotation (default: $IMGPROXY_KEY).")
    var key: [String] = []

    @Option(help: "A signing salt in hexadecimal, one per --key (default: $IMGPROXY_SALT).")
    var salt: [String] = []

    @Option(help: "Bytes of the digest a signature keeps, 1…32 (default: $IMGPROXY_SIGNATURE_SIZE or 32).")
    var signatureSize: Int?

    @Option(help: "Cache-Control max-age of images, in seconds (default: $IMGPROXY_TTL or one year).")
    var ttl: Int?

    @Option(help: "Encoder quality when a URL gives none, 1…100 (default: $IMGPROXY_QUALITY or 80).")
    var quality: Int?

    @Option(help: "The folder local:///PATH sources are read from (default: $IMGPROXY_LOCAL_FILESYSTEM_ROOT, else the current folder when listening on loopback, else none: refused).")
    var localRoot: String?

    @Option(help: "A preset, NAME=OPTION/OPTION/…; repeat for more (default: $IMGPROXY_PRESETS).")
    var preset: [String] = []

    @Option(help: "The most megapixels a decoded source may have (default: $IMGPROXY_MAX_SRC_RESOLUTION or 50).")
    var maxSrcResolution: Double?

    @Option(help: "The largest source download, in bytes (default: $IMGPROXY_MAX_SRC_FILE_SIZE or 64 MiB).")
    var maxSrcFileSize: Int?

    @Option(help: "The most frames of an animated source processed; 1 makes animations still, more frames are refused (default: $IMGPROXY_MAX_ANIMATION_FRAMES or 100).")
    var maxAnimationFrames: Int?

    @Option(help: "Seconds a source download may stall (default: $IMGPROXY_DOWNLOAD_TIMEOUT or 15).")
    var downloadTimeout: Double?

    @Option(help: "Redirects a source download follows, each one's address checked again (default: $IMGPROXY_MAX_REDIRECTS or 10).")
    var maxRedirects: Int?

    @Option(help: "Images processed at once (default: $IMGPROXY_WORKERS or twice the processor count).")
    var concurrency: Int?

    @Option(help: "Requests that may wait for processing; more are answered 429 (default: $IMGPROXY_REQUESTS_QUEUE_SIZE or 1000).")
    var maxQueue: Int?

    @Option(help: "A folder for the source and result disk caches (default: sources in WebImage's default cache folder, results in memory only).")
    var cacheDir: String?

    @Option(help: "A URL prefix sources must start with; repeat for more; end a host with / (default: $IMGPROXY_ALLOWED_SOURCES, comma-separated; none: any).")
    var allowedSources: [String] = []

    @Option(help: "The URL forms answered: imgproxy, thumbor, or both, told apart by the first segment.")
    var urlFormat: ServedURLFormat = .both

    @Option(help: "thumbor's security key: thumbor URLs must carry its HMAC-SHA1 signature (default: $THUMBOR_SECURITY_KEY).")
    var thumborKey: String?

    @Flag(help: "Answer URLs without a format in WebP when Accept lists image/webp (default: $IMGPROXY_AUTO_WEBP).")
    var autoWebp = false

    @Flag(help: "Answer URLs without a format in AVIF when Accept lists image/avif, before WebP (default: $IMGPROXY_AUTO_AVIF).")
    var autoAvif = false

    @Flag(help: "Fetch sources that resolve to loopback addresses (127.0.0.0/8, ::1).")
    var allowLoopbackSources = false

    @Flag(help: "Fetch sources that resolve to private, link-local or carrier-grade NAT addresses.")
    var allowPrivateSources = false

    @Option(help: "Seconds a log line may wait in memory to be written with others; 0 writes each at once (default: $WEBIMAGE_LOG_INTERVAL or 0.1).")
    var logInterval: Double?

    @OptionGroup(title: "Shared cache")
    var shared: SharedTierOptions

    func run() async throws {
        WebImageCommand.prepareCoders()
        let environment = ProcessInfo.processInfo.environment.filter { !$0.value.isEmpty }
        // One line a request: formatted once, written to standard error in batches (within a
        // tenth of a second by default, and all of them before the command returns).
        let interval = try await CommandFailure.reporting {
            let seconds = try logInterval ?? Self.decimal(environment, "WEBIMAGE_LOG_INTERVAL", orZero: true) ?? 0.1
            guard (0...60).contains(seconds) else { throw CommandFailure("--log-interval must be 0…60 seconds") }
            return seconds
        }
        let logLines = LogLineBuffer(interval: .milliseconds(Int((interval * 1000).rounded())))
        defer { logLines.flush() }
        LoggingSystem.bootstrap { BufferedLogHandler(label: $0, buffer: logLines) }
        // Once per process, before any handle exists: everything counted through swift-metrics,
        // in any module, lands in this registry, which /metrics shows.
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        let tier = try await CommandFailure.reporting { try shared.makeTier(environment) }
        let (server, downloader) = try await CommandFailure.reporting {
            try makeServer(environment, tier: tier, metrics: registry)
        }
        do {
            try await server.run { port in
                var lines = "webimage serve: listening on \(ServeExample.baseURL(host: server.host, port: port))\n"
                if let example = ServeExample(responder: server.responder, host: server.host, port: port) {
                    lines += "webimage serve: example: \(example.url)\n"
                }
                FileHandle.standardOutput.write(Data(lines.utf8))
            }
        } catch {
            try? await downloader.shutdown()
            await tier?.client.close()
            throw error
        }
        try await downloader.shutdown()
        await tier?.client.close()
    }

    /// The server the options describe, its caches over `tier` when there is one, its metrics
    /// in `metrics`, and the downloader to shut down once it has stopped.
    private func makeServer(_ environment: [String: String], tier: SharedTier?, metrics: PrometheusCollectorRegistry)
        throws -> (ImageServer, HTTPImageDownloader) {
        let (host, port) = try Self.address(bind ?? environment["IMGPROXY_BIND"] ?? "127.0.0.1:8080")
        let keys = key.isEmpty ? environment["IMGPROXY_KEY"].map { [$0] } ?? [] : key
        let salts = salt.isEmpty ? environment["IMGPROXY_SALT"].map { [$0] } ?? [] : salt
        let signer = try URLSigner(hexKeys: keys, hexSalts: salts,
                                   signatureSize: try signatureSize ?? Self.number(environment, "IMGPROXY_SIGNATURE_SIZE") ?? 32)
        let presetDefinitions = preset.isEmpty
            ? environment["IMGPROXY_PRESETS"].map { $0.split(separator: ",").map(String.init) } ?? [] : preset
        let parser = ProcessingURLParser(presets: try ProcessingPresets(definitions: presetDefinitions))

        let downloader = HTTPImageDownloader(
            configuration: HTTPImageDownloader.Configuration(
                downloadTimeout: try downloadTimeout ?? Self.decimal(environment, "IMGPROXY_DOWNLOAD_TIMEOUT") ?? 15,
                maxBytes: try maxSrcFileSize ?? Self.number(environment, "IMGPROXY_MAX_SRC_FILE_SIZE") ?? 64 << 20,
                maxRedirects: max(0, try maxRedirects ?? Self.number(environment, "IMGPROXY_MAX_REDIRECTS") ?? 10)),
            addressPolicy: SourceAddressPolicy(allowsLoopback: allowLoopbackSources, allowsPrivate: allowPrivateSources))
        let megapixels = try maxSrcResolution ?? Self.decimal(environment, "IMGPROXY_MAX_SRC_RESOLUTION") ?? 50
        let cacheFolder = cacheDir.map { URL(fileURLWithPath: $0, isDirectory: true) }
        let localSources = ImageCache(memory: MemoryCache(costLimit: 64 << 20),
                                      disk: try cacheFolder.map { try DiskCache(directory: $0.appendingPathComponent("sources")) }
                                        ?? DiskCache(namespace: "webimage-serve-sources"))
        // The cache added last is asked first: local memory and disk, then Redis; stores go to both.
        let sourceCache: any ImageCaching = tier.map {
            ImageCachesManager(caches: [$0.sources, localSources], storePolicy: .all)
        } ?? localSources
        let manager = ImageManager(imageCache: sourceCache, imageLoader: ImageLoaders.standard(downloader: downloader))
        // Listening on loopback, only this machine can ask, and it can read the current folder anyway.
        let root = localRoot ?? environment["IMGPROXY_LOCAL_FILESYSTEM_ROOT"]
            ?? (Self.isLoopback(host) ? FileManager.default.currentDirectoryPath : nil)
        let processor = ImageProcessor(
            manager: manager, localRoot: root.map { URL(fileURLWithPath: $0, isDirectory: true) },
            defaultQuality: try quality ?? Self.number(environment, "IMGPROXY_QUALITY") ?? 80,
            allowedSources: allowedSources.isEmpty
                ? environment["IMGPROXY_ALLOWED_SOURCES"].map { $0.split(separator: ",").map(String.init) } ?? [] : allowedSources,
            maxSourcePixels: Int(megapixels * 1_000_000),
            maxAnimationFrames: try maxAnimationFrames ?? Self.number(environment, "IMGPROXY_MAX_ANIMATION_FRAMES") ?? 100,
            concurrency: try concurrency ?? Self.number(environment, "IMGPROXY_WORKERS")
                ?? 2 * ProcessInfo.processInfo.activeProcessorCount,
            maxQueue: try maxQueue ?? Self.number(environment, "IMGPROXY_REQUESTS_QUEUE_SIZE") ?? 1000,
            disk: try cacheFolder.map { try DiskCache(directory: $0.appendingPathComponent("results")) },
            sharedCache: tier?.results)
        // In order of preference, as imgproxy: AVIF (smaller) before WebP.
        let acceptedFormats: [ImageFormat] = [
            (ImageFormat.avif, autoAvif || environment["IMGPROXY_AUTO_AVIF"] == "true"),
            (.webp, autoWebp || environment["IMGPROXY_AUTO_WEBP"] == "true"),
        ].filter(\.1).map(\.0)
        let router = ProcessingURLRouter(format: urlFormat, imgproxyParser: parser, imgproxySigner: signer,
                                         thumborSigner: ThumborURLSigner(key: thumborKey ?? environment["THUMBOR_SECURITY_KEY"]))
        let responder = ImageServerResponder(router: router, processor: processor,
                                             ttl: try ttl ?? Self.number(environment, "IMGPROXY_TTL") ?? 31_536_000,
                                             acceptedFormats: acceptedFormats, logger: Logger(label: "webimage.serve"),
                                             metricsRegistry: metrics)
        return (ImageServer(responder: responder, host: host, port: port), downloader)
    }

    /// `127.0.0.1:8080`, `[::1]:8080`, `:8080` (all addresses) as a host and a port.
    static func address(_ text: String) throws -> (String, Int) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
              (0...65535).contains(port) else {
            throw CommandFailure("--bind \(text) is not HOST:PORT")
        }
        let host = text[..<colon].trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return (host.isEmpty ? "0.0.0.0" : host, port)
    }

    /// Whether `host` is a loopback address or `localhost`.
    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// The number in environment variable `name`, positive (or zero too, when `orZero`), or nil
    /// when it is not set.
    private static func decimal(_ environment: [String: String], _ name: String, orZero: Bool = false) throws -> Double? {
        guard let text = environment[name] else { return nil }
        guard let value = Double(text), value.isFinite, value > 0 || (orZero && value == 0) else {
            throw CommandFailure("\(name) is not a positive number")
        }
        return value
    }

    /// The whole number in environment variable `name`, or nil when it is not set.
    private static func number(_ environment: [String: String], _ name: String) throws -> Int? {
        guard let text = environment[name] else { return nil }
        guard let value = Int(text) else { throw CommandFailure("\(name) is not a number") }
        return value
    }
}
