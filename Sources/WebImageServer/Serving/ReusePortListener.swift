import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOExtras
import NIOPosix
import ServiceLifecycle

/// The main listener with `SO_REUSEPORT` on its socket (imgproxy's `IMGPROXY_SO_REUSEPORT`):
/// several processes bind the same address and port, and the kernel spreads new connections
/// among them. Hummingbird's server sets no socket option but the backlog and `SO_REUSEADDR`,
/// so this service binds the socket itself and serves each connection with Hummingbird's HTTP/1
/// channel: the same channel handlers and responder as ``ImageServer/application(onListening:)``,
/// each answer dated and named as Hummingbird's application names it.
///
/// On graceful shutdown the socket closes, the connections are told to finish their requests
/// under way and close (NIO's quiescing), and the service returns once all have.
struct ReusePortListener: Service {
    /// The address and port bound.
    let host: String
    let port: Int
    /// The connections' HTTP/1 channel: its decoder limits and the server's channel handlers.
    let channel: HTTP1Channel.Configuration
    /// What answers requests.
    let responder: ImageServerResponder
    /// The `Server` field of every answer.
    let serverName: String
    /// The listener's own logger (Hummingbird's, at warning or above).
    let logger: Logger
    /// Gets the bound port once connections are accepted.
    let onListening: @Sendable (Int) async -> Void

    func run() async throws {
        let clock = HTTPDateClock()
        let (responder, serverName, logger) = (responder, serverName, logger)
        let connections = HTTP1Channel(responder: { request, writer, channel in
            let context = ImageRequestContext(source: .init(channel: channel, logger: logger))
            var response: Response
            do {
                response = try await responder.respond(to: request, context: context)
            } catch {
                response = Response(status: .internalServerError)
            }
            response.headers[.date] = clock.now
            response.headers[.server] = serverName
            try await writer.write(response: response.head, body: response.body)
        }, configuration: channel)
        let group = MultiThreadedEventLoopGroup.singleton
        let quiescing = ServerQuiescingHelper(group: group)
        let server = try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelOption(ChannelOptions.socketOption(NIOBSDSocket.Option(rawValue: SO_REUSEPORT)), value: 1)
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(quiescing.makeServerChannelHandler(channel: channel))
                }
            }
            .bind(host: host, port: port, serverBackPressureStrategy: nil) { channel in
                connections.setup(channel: channel, logger: logger)
            }
        await onListening(server.channel.localAddress?.port ?? port)
        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { tasks in
                do {
                    try await server.executeThenClose { inbound in
                        for try await connection in inbound {
                            tasks.addTask { await connections.handle(value: connection, logger: logger) }
                        }
                    }
                } catch {
                    logger.error("accepting connections failed", metadata: ["error.message": "\(error)"])
                }
            }
        } onGracefulShutdown: {
            quiescing.initiateShutdown(promise: nil)
        }
    }
}
