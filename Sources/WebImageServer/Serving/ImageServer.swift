import Hummingbird
import Logging

/// An HTTP server (Hummingbird 2) answering with an ``ImageServerResponder``, until SIGTERM or
/// SIGINT, after which it finishes the requests under way and returns.
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
        let application = Application(
            responder: responder,
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "webimage"),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? port) },
            logger: logger)
        try await application.runService()
    }
}
