import NIOCore

/// Knows when the client of a connection has gone: its side of the connection ended (end of
/// input) or the connection closed. Hummingbird allows half-closed connections, so a client that
/// hangs up while its request is processed closes nothing on the server's side until an answer
/// is written; this handler lets the responder stop the work at once instead
/// (``ImageRequestContext/clientDeparted``).
final class ClientDepartureHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    /// Completed when the client has gone; made when the handler joins its pipeline.
    private(set) var departed: EventLoopPromise<Void>?

    func handlerAdded(context: ChannelHandlerContext) {
        departed = context.eventLoop.makePromise(of: Void.self)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        departed?.succeed()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .inputClosed? = event as? ChannelEvent { departed?.succeed() }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        departed?.succeed()
        context.fireChannelInactive()
    }
}
