import NIOCore
import NIOPosix

/// Loopback ports for the servers a test starts.
enum LoopbackPort {
    /// A loopback port nothing listens on: bound, read, released.
    static func free() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0).get()
        let port = channel.localAddress?.port ?? 0
        try await channel.close()
        return port
    }
}
