import NIOCore
import NIOPosix

/// A TCP listener on loopback that accepts connections and never answers: a hung server.
final class SilentTCPListener {
    private let channel: any Channel

    /// The port it listens on.
    var port: Int { channel.localAddress?.port ?? 0 }

    private init(channel: any Channel) { self.channel = channel }

    /// A listener on a free loopback port.
    static func start() async throws -> SilentTCPListener {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { $0.eventLoop.makeSucceededVoidFuture() }
            .bind(host: "127.0.0.1", port: 0).get()
        return SilentTCPListener(channel: channel)
    }

    /// Stops listening (connections it accepted close with the process's event loops).
    func stop() async throws {
        try await channel.close()
    }
}
