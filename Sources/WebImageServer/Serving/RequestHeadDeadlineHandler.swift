import NIOCore
import NIOHTTPTypes

/// Closes a connection that does not send a complete request head in time: from its opening,
/// and from each answer until the next request (imgproxy's `IMGPROXY_READ_REQUEST_TIMEOUT`).
/// Slow-header clients cannot hold connections for ever, and an idle keep-alive connection
/// closes after the same time. A connection with a request under way is never closed here.
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
        if case .end = unwrapOutboundIn(data) {
            unanswered = max(0, unanswered - 1)
            if unanswered == 0 { startTimer(context: context) }
        }
        context.write(data, promise: promise)
    }

    /// Schedules the connection's closing unless a head arrives within the limit.
    private func startTimer(context: ChannelHandlerContext) {
        timer?.cancel()
        let channel = context.channel
        timer = context.eventLoop.scheduleTask(in: limit) { channel.close(promise: nil) }
    }
}
