import Locking
import NIOCore

/// Keeps the connections open at once within a limit (imgproxy's `IMGPROXY_MAX_CLIENTS`): one
/// past it is closed as soon as it is accepted, before anything is read from it, so that a flood
/// of idle connections costs the server no more than the limit's worth of descriptors and
/// handlers while the connections already open go on.
final class ConnectionLimitHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    /// The connections open now, shared by every connection's handler.
    final class OpenConnections: Sendable {
        /// The most connections open at once.
        let limit: Int
        private let count = Atomic<Int>(0)

        /// A count of connections allowed up to `limit`.
        init(limit: Int) {
            self.limit = limit
        }

        /// Counts a new connection; false when it is over the limit (and then not counted).
        func admit() -> Bool {
            guard count.add(1, ordering: .relaxed).newValue > limit else { return true }
            count.subtract(1, ordering: .relaxed)
            return false
        }

        /// Counts a connection admitted before as closed.
        func release() {
            count.subtract(1, ordering: .relaxed)
        }
    }

    private let connections: OpenConnections
    /// Whether this connection was admitted, and so counted.
    private var admitted = false

    /// A handler counting its connection in `connections`.
    init(connections: OpenConnections) {
        self.connections = connections
    }

    func handlerAdded(context: ChannelHandlerContext) {
        admitted = connections.admit()
        if !admitted { context.close(promise: nil) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        if admitted { connections.release() }
        admitted = false
    }
}
