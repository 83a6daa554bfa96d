import NIOCore
import NIOHTTPTypes

/// Closes a connection that does not send a complete request head in time: from its opening,
/// and from each answer until the next request (imgproxy's `IMGPROXY_READ_REQUEST_TIMEOUT`).
/// Slow-header clients cannot hold connections for ever, and an idle keep-alive connection
/// closes after the same time, counted from when the last answer was written out. A
/// connection with a request under way is never closed here.
final class RequestHeadDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// How long a connection may take to send a request head.
    private let limit: TimeAmount
    /// The closing scheduled for a connection that sends no head in time.
    private var timer: Scheduled<Void>?
    /// Requests whose heads arrived and whose answers have not ended.
    private var unanswered = 0

    /// A handler giving each request head `limit` to arrive.
    init(limit: TimeAmount) {
        self.limit = limit
    }

    func handlerAdded(context: ChannelHandlerContext) {
        startTimer(context: context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) {
            unanswered += 1
            timer?.cancel()
            timer = nil
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data) else { return context.write(data, promise: promise) }
        unanswered = max(0, unanswered - 1)
        // The wait for the next head starts once the answer has gone out, not while a large
        // body still queues for a slow client.
        let written = promise ?? context.eventLoop.makePromise(of: Void.self)
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        written.futureResult.whenSuccess {
            let (handler, context) = loopBound.value
            if handler.unanswered == 0 { handler.startTimer(context: context) }
        }
        context.write(data, promise: written)
    }

    /// Schedules the connection's closing unless a head arrives within the limit.
    private func startTimer(context: ChannelHandlerContext) {
        timer?.cancel()
        let channel = context.channel
        timer = context.eventLoop.scheduleTask(in: limit) { channel.close(promise: nil) }
    }
}
