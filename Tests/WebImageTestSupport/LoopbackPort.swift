import NIOCore
import NIOPosix

/// Loopback ports for the servers a test starts.
public enum LoopbackPort {
    /// A loopback port nothing listens on: bound, read, released.
    public static func free() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0).get()
        let port = channel.localAddress?.port ?? 0
        try await channel.close()
        return port
    }

    /// What `start` returns on a free port, trying another when it throws ``Taken``: between
    /// ``free()`` and the server's own bind, another process (a parallel test, another build's
    /// suite on the same machine) may take the port, and the server exits.
    public static func withFreePort<Server>(attempts: Int = 5, _ start: (Int) async throws -> Server) async throws -> Server {
        var attempt = 1
        while true {
            do {
                return try await start(try await free())
            } catch is Taken where attempt < attempts {
                attempt += 1
            }
        }
    }

    /// A server exited before it answered on its port, as it does when the port was taken;
    /// what it said.
    public struct Taken: Error, CustomStringConvertible {
        /// The server that exited.
        public let server: String
        /// What it printed.
        public let output: String

        /// The server and what it printed.
        public init(server: String, output: String) {
            self.server = server
            self.output = output
        }

        public var description: String { "\(server) exited before it answered (its port taken?): \(output)" }
    }
}
