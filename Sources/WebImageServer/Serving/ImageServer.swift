import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle
import WebImage

/// An HTTP server (Hummingbird 2) answering with an ``ImageServerResponder``, until SIGTERM or
/// SIGINT, after which it finishes the requests under way and returns. Results in memory are
/// answered on the event loop that read the request (`MemoryHitHandler`), the rest in tasks.
///
/// ``init(configuration:extensions:)`` assembles the whole server from its configuration, as
/// `webimage serve` runs it; ``init(responder:)`` serves a responder put together by hand.
public struct ImageServer: Sendable {
    /// What answers requests.
    public let responder: ImageServerResponder
    /// Where and how connections are taken: the address, the connection limit, the request
    /// head's deadline and the path prefix (the responder's, so the two cannot disagree).
    public var listening: ServerConfiguration.ListeningSettings { responder.listening }
    /// The address to listen on.
    public var host: String { listening.host }
    /// The port to listen on; 0 lets the system choose one.
    public var port: Int { listening.port }
    /// The downloader of sources and the codec threads the assembly made, which ``shutdown()``
    /// releases; nil for a responder put together by hand, whose parts its maker releases.
    private let downloader: HTTPImageDownloader?
    private let codecs: CodecExecutor?
    /// The extensions' services (``Extensions/services``), run first and stopped last.
    private let extensionServices: [any Service]

    /// A server for `responder`, taking connections as its listening settings say.
    public init(responder: ImageServerResponder) {
        self.init(responder: responder, downloader: nil, codecs: nil, services: [])
    }

    /// A server for `responder` that owns `downloader` and `codecs`, running `services` beside it.
    init(responder: ImageServerResponder, downloader: HTTPImageDownloader?, codecs: CodecExecutor?, services: [any Service]) {
        self.responder = responder
        self.downloader = downloader
        self.codecs = codecs
        extensionServices = services
    }

    /// Releases what the assembly opened (the source downloader's connections, the codec
    /// threads) once the server has stopped serving; later source fetches fail.
    public func shutdown() async throws {
        codecs?.shutdown()
        try await downloader?.shutdown()
    }

    /// Serves until a shutdown signal (SIGTERM or SIGINT), then finishes the requests under
    /// way for up to the graceful stop timeout, cancelling those still running then; an address
    /// held by another socket is ``ImageServerStartError/addressInUse(_:)``. `onListening` gets the bound port once requests are accepted, `onMetricsListening`
    /// the metrics listener's when there is one. A server embedded beside others runs
    /// ``services(onListening:onMetricsListening:)`` in a `ServiceGroup` of its own.
    public func run(onListening: @escaping @Sendable (Int) async -> Void,
                    onMetricsListening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let services = services(onListening: onListening, onMetricsListening: onMetricsListening)
        var configuration = ServiceGroupConfiguration(services: services.map { .init(service: $0) },
                                                      gracefulShutdownSignals: [.sigterm, .sigint], logger: responder.logger)
        let drain = listening.gracefulStopTimeout ?? 2 * listening.timeout
        configuration.maximumGracefulShutdownDuration = .milliseconds(Int64((drain * 1000).rounded()))
        do {
            try await ServiceGroup(configuration: configuration).run()
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw ImageServerStartError.addressInUse(listenedAddresses)
        }
    }

    /// The TCP addresses listened on, as `--bind` and `--prometheus-bind` give them: what a
    /// failure to bind names.
    private var listenedAddresses: String {
        let main = listening.socketPath ?? "\(host):\(port)"
        guard let metrics = responder.metricsAddress else { return main }
        return "\(main) or \(metrics.host):\(metrics.port)"
    }

    /// What ``run(onListening:onMetricsListening:)`` runs, in the order a service group starts
    /// them (it stops them in the other): the extensions' services, the
    /// ``application(onListening:)`` (or its `SO_REUSEPORT` listener), and the ``metricsApplication(onListening:)`` when the
    /// responder has a ``ImageServerResponder/metricsAddress``.
    public func services(onListening: @escaping @Sendable (Int) async -> Void = { _ in },
                         onMetricsListening: @escaping @Sendable (Int) async -> Void = { _ in }) -> [any Service] {
        extensionServices + [mainListener(onListening: onListening)]
            + [metricsApplication(onListening: onMetricsListening)].compactMap { $0 }
    }

    /// The listener of the metrics alone, at the responder's ``ImageServerResponder/metricsAddress``
    /// (imgproxy's `IMGPROXY_PROMETHEUS_BIND`); nil when it has none, or no registry.
    /// `onListening` gets its bound port.
    public func metricsApplication(onListening: @escaping @Sendable (Int) async -> Void = { _ in })
        -> Application<MetricsResponder>? {
        guard let address = responder.metricsAddress, let registry = responder.metricsRegistry else { return nil }
        var logger = Logger(label: "webimage.serve.metrics")
        logger.logLevel = max(.warning, responder.logger.logLevel)
        return Application(responder: MetricsResponder(registry: registry),
                           configuration: ApplicationConfiguration(address: .hostname(address.host, port: address.port),
                                                                   serverName: "webimage"),
                           onServerRunning: { channel in await onListening(channel.localAddress?.port ?? address.port) },
                           logger: logger)
    }

    /// Where the application listens: ``ServerConfiguration/ListeningSettings/socketPath`` (a
    /// socket an earlier run left there removed first), else ``host`` and ``port``.
    private var bindAddress: BindAddress {
        guard let path = listening.socketPath else { return .hostname(host, port: port) }
        var status = stat()
        if lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK { unlink(path) }
        return .unixDomainSocket(path: path)
    }

    /// The Hummingbird application ``run(onListening:onMetricsListening:)`` runs: also what HummingbirdTesting
    /// drives in process (its `.router` setup answers through ``responder`` without a port).
    /// With ``ServerConfiguration/ListeningSettings/reusePort`` on a TCP address, the service run
    /// in its place binds with `SO_REUSEPORT` and serves the same channel.
    public func application(onListening: @escaping @Sendable (Int) async -> Void = { _ in })
        -> Application<ImageServerResponder> {
        Application(
            responder: responder,
            server: .http1(configuration: channelConfiguration()),
            configuration: ApplicationConfiguration(address: bindAddress, serverName: Self.serverName),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? port) },
            logger: listenerLogger)
    }

    /// What answers are named in their `Server` field.
    private static let serverName = "webimage"

    /// The logger of the listener itself: Hummingbird's lines at warning or above.
    private var listenerLogger: Logger {
        var logger = Logger(label: "webimage.serve")
        logger.logLevel = max(.warning, responder.logger.logLevel)
        return logger
    }

    /// The main listener's service: the ``application(onListening:)``, or with
    /// ``ServerConfiguration/ListeningSettings/reusePort`` on a TCP address a listener binding
    /// with `SO_REUSEPORT` (a Unix socket's path cannot be shared so).
    private func mainListener(onListening: @escaping @Sendable (Int) async -> Void) -> any Service {
        guard listening.reusePort, listening.socketPath == nil else { return application(onListening: onListening) }
        return ReusePortListener(host: host, port: port, channel: channelConfiguration(), responder: responder,
                                 serverName: Self.serverName, logger: listenerLogger, onListening: onListening)
    }

    /// The HTTP/1 channel of every connection: its decoder limits and channel handlers.
    private func channelConfiguration() -> HTTP1Channel.Configuration {
        let serverName = Self.serverName
        let clock = HTTPDateClock()
        let connections = ConnectionLimitHandler.OpenConnections(limit: listening.maxClients)
        let headLimit = TimeAmount.nanoseconds(Int64(listening.readRequestTimeout * 1_000_000_000))
        let writeLimit = TimeAmount.nanoseconds(Int64(listening.writeResponseTimeout * 1_000_000_000))
        let keepAlive = listening.keepAliveTimeout > 0 ? TimeAmount.nanoseconds(Int64(listening.keepAliveTimeout * 1_000_000_000)) : nil
        let maxTargetLength = listening.pathPrefix.utf8.count + responder.router.imgproxyParser.limits.maxPathLength
        let decoder = HTTP1Channel.Configuration.DecoderConfiguration(
            maxHeaderFieldSize: RequestFramingHandler.maxHeadBytes, maxHeaderListSize: RequestFramingHandler.maxHeadBytes,
            maxHeaderFieldCount: RequestFramingHandler.maxFields)
        // Each connection gets its own handlers: the connection limit first, then the refusal
        // of heads no image request has, the request head deadline (which also closes idle
        // connections: Hummingbird's idle timeout would not see the memory hits answered
        // before it), the client's departure, the answers' write deadline, and memory hits
        // answered before Hummingbird's tasks (their writes pass the deadline too).
        return .init(additionalChannelHandlers: [
            ConnectionLimitHandler(connections: connections),
            RequestFramingHandler(maxTargetLength: maxTargetLength),
            RequestHeadDeadlineHandler(limit: headLimit, idle: keepAlive),
            ClientDepartureHandler(),
            ResponseWriteDeadlineHandler(limit: writeLimit),
            MemoryHitHandler(responder: responder, serverName: serverName, clock: clock),
        ], httpDecoderConfiguration: decoder)
    }
}

extension ImageServer {
    /// The server's settings: ``ServerConfiguration``, which processing reads too.
    public typealias Configuration = ServerConfiguration
}
