import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Locking

/// A real HTTP/1.1 server on 127.0.0.1, for the loader tests and `webimage demo`: routes by
/// path, and records what the clients did — requests per path, the order and headers of requests, the most requests in
/// flight at once, the connections opened, and responses the client abandoned by closing the connection.
///
/// Unknown paths get 404. Start with ``start(tls:)``, stop with ``stop()``. Given a
/// ``LoopbackTLSIdentity``, it speaks HTTPS instead, for the certificate-verification tests.
public final class LoopbackHTTPServer: Sendable {
    /// Handles the request for one path.
    public typealias Handler = @Sendable (LoopbackHTTPRequest) -> LoopbackHTTPResponse

    private struct State {
        var routes: [String: Handler] = [:]
        var log: [LoopbackHTTPRequest] = []
        var inFlight = 0
        var maxInFlight = 0
        var aborted: [String] = []
        var connections = 0
    }

    private let state = Mutex(State())
    private let channel = Mutex<(any Channel)?>(nil)
    private let boundPort = Mutex(0)
    /// `https` when the server speaks TLS, `http` otherwise.
    private let scheme: String

    private init(scheme: String) {
        self.scheme = scheme
    }

    /// Starts a server on 127.0.0.1 with a port the system picks: plain HTTP, or HTTPS with
    /// `tls`'s certificate when given.
    public static func start(tls: LoopbackTLSIdentity? = nil) async throws -> LoopbackHTTPServer {
        let server = LoopbackHTTPServer(scheme: tls == nil ? "http" : "https")
        let sslContext = try tls.map { try NIOSSLContext(configuration: $0.serverConfiguration()) }
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                server.state.withLock { $0.connections += 1 }
                return channel.eventLoop.makeCompletedFuture {
                    if let sslContext {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: sslContext))
                    }
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(LoopbackHTTPConnectionHandler(server: server))
                }
            }
        let channel = try await bootstrap.bind(host: "127.0.0.1", port: 0).get()
        server.channel.withLock { $0 = channel }
        server.boundPort.withLock { $0 = channel.localAddress?.port ?? 0 }
        return server
    }

    /// Closes the listening socket.
    public func stop() async throws {
        try await channel.withLock { $0 }?.close()
    }

    /// The port the server listens on.
    public var port: Int { boundPort.withLock { $0 } }

    /// `http://127.0.0.1:<port><path>` (`https` when the server speaks TLS).
    public func url(_ path: String) -> URL {
        URL(string: "\(scheme)://127.0.0.1:\(port)\(path)")!
    }

    /// Answers requests for `path` (without query) with `handler`.
    public func route(_ path: String, _ handler: @escaping Handler) {
        state.withLock { $0.routes[path] = handler }
    }

    /// Answers every request for `path` with `response`.
    public func route(_ path: String, _ response: LoopbackHTTPResponse) {
        route(path) { _ in response }
    }

    /// Every request received so far, in arrival order.
    public var requests: [LoopbackHTTPRequest] { state.withLock { $0.log } }

    /// The paths requested so far, in arrival order.
    public var requestedPaths: [String] { requests.map(\.path) }

    /// How many requests for `path` arrived.
    public func requestCount(_ path: String) -> Int {
        state.withLock { $0.log.filter { $0.path == path }.count }
    }

    /// The most requests that were in flight (received, response not finished) at one time.
    public var maxConcurrentRequests: Int { state.withLock { $0.maxInFlight } }

    /// How many requests are in flight now: received, and their response neither finished nor
    /// abandoned.
    public var requestsInFlight: Int { state.withLock { $0.inFlight } }

    /// How many connections clients have opened: one per request unless they keep connections alive.
    public var connectionCount: Int { state.withLock { $0.connections } }

    /// How many responses for `path` the client abandoned by closing the connection early.
    public func abortedCount(_ path: String) -> Int {
        state.withLock { $0.aborted.filter { $0 == path }.count }
    }

    /// Waits until `condition` holds, checking every 10 ms for at most `timeout`; returns
    /// whether it held.
    public func wait(timeout: Duration = .seconds(30), until condition: @Sendable (LoopbackHTTPServer) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(self) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition(self)
    }

    // MARK: Called by the connection handlers

    /// Records `request` as arrived and in flight, and returns the response to send.
    func begin(_ request: LoopbackHTTPRequest) -> LoopbackHTTPResponse {
        let handler = state.withLock { state -> Handler? in
            state.log.append(request)
            state.inFlight += 1
            state.maxInFlight = max(state.maxInFlight, state.inFlight)
            return state.routes[request.path]
        }
        return handler?(request) ?? .status(404)
    }

    /// Records the end of a response for `path`: sent completely, or abandoned by the client.
    func end(_ path: String, aborted: Bool) {
        state.withLock { state in
            state.inFlight -= 1
            if aborted { state.aborted.append(path) }
        }
    }
}
