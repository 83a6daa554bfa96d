import Hummingbird
import Logging

/// An HTTP server (Hummingbird 2) answering with an ``ImageServerResponder``, until SIGTERM or
/// SIGINT, after which it finishes the requests under way and returns. Results in memory are
/// answered on the event loop that read the request (``MemoryHitHandler``), the rest in tasks.
public struct ImageServer: Sendable {
    /// What answers requests.
    public let responder: ImageServerResponder
    /// The address to listen on.
    public let host: String
    /// The port to listen on; 0 lets the system choose one.
    public let port: Int

    /// A server for `responder` on `host`:`port`.
    public init(responder: ImageServerResponder, host: String, port: Int) {
        self.responder = responder
        self.host = host
        self.port = port
    }

    /// Serves until a shutdown signal; `onListening` gets the bound port once requests are accepted.
    public func run(onListening: @escaping @Sendable (Int) async -> Void) async throws {
        var logger = Logger(label: "webimage.serve")
        logger.logLevel = .warning
        let serverName = "webimage"
        let clock = HTTPDateClock()
        // Each connection gets its own handler answering memory hits before Hummingbird's tasks.
        let application = Application(
            responder: responder,
            server: .http1(configuration: .init(additionalChannelHandlers: [
                ClientDepartureHandler(),
                MemoryHitHandler(responder: responder, serverName: serverName, clock: clock),
            ])),
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: serverName),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? port) },
            logger: logger)
        try await application.runService()
    }
}
