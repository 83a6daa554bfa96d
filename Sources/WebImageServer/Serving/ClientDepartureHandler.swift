import NIOCore

/// Knows when the client of a connection has gone: its side of the connection ended (end of
/// input) or the connection closed. Hummingbird allows half-closed connections, so a client that
/// hangs up while its request is processed closes nothing on the server's side until an answer
/// is written; this handler lets the responder stop the work at once instead, through its
/// ``signal``. As Go's HTTP server (imgproxy's), an end of input counts as the client gone: a
/// client that half-closes after its request is not waited for.
final class ClientDepartureHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    /// What the connection's requests listen to.
    let signal = DepartureSignal()

    func handlerRemoved(context: ChannelHandlerContext) {
        signal.depart()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .inputClosed? = event as? ChannelEvent { signal.depart() }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        signal.depart()
        context.fireChannelInactive()
    }
}
