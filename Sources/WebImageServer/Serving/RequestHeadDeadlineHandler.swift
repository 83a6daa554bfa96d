import NIOCore
import NIOHTTPTypes

/// Closes a connection that does not send a complete request head in time: from its opening,
/// and from each answer until the next request (imgproxy's `IMGPROXY_READ_REQUEST_TIMEOUT`).
/// Slow-header clients cannot hold connections for ever, and an idle keep-alive connection
/// closes after the same time, counted from its last answer. A connection with a request under
/// way is never closed here, and neither is one whose answer still queues for a slow client
/// (its channel not writable): the wait starts again once it drains.
///
/// A request costs this handler two assignments: the connection keeps one timer, which fires
/// at the earliest moment the deadline can pass, looks at the deadline then, and sets itself
/// again while it has not passed, rather than a timer cancelled and scheduled per request.
final class RequestHeadDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// How long a connection may take to send a request head.
    private let limit: TimeAmount
    /// When the connection closes unless a request head arrives first; nil while a request is
    /// under way.
    private var deadline: NIODeadline?
    /// The one timer, scheduled for the deadline (or a moment before it moved later); nil
    /// while none is due.
    private var timer: Scheduled<Void>?
    /// Requests whose heads arrived and whose answers have not ended.
    private var unanswered = 0

    /// A handler giving each request head `limit` to arrive.
    init(limit: TimeAmount) {
        self.limit = limit
    }

    func handlerAdded(context: ChannelHandlerContext) {
        wait(context: context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) {
            unanswered += 1
            deadline = nil
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            unanswered = max(0, unanswered - 1)
            if unanswered == 0 { wait(context: context) }
        }
        context.write(data, promise: promise)
    }

    /// Starts the wait for the next request head: the deadline is `limit` from now, and the
    /// timer is set unless one is already due no later.
    private func wait(context: ChannelHandlerContext) {
        let due = NIODeadline.now() + limit
        deadline = due
        if timer == nil { schedule(at: due, context: context) }
    }

    /// Sets the timer for `moment`, when it checks the deadline.
    private func schedule(at moment: NIODeadline, context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(deadline: moment) {
            let (handler, context) = loopBound.value
            handler.timer = nil
            handler.check(context: context)
        }
    }

    /// Closes the connection once its deadline has passed, with no request under way and no
    /// answer queued; otherwise sets the timer for the deadline as it stands.
    private func check(context: ChannelHandlerContext) {
        guard let deadline else { return }
        if deadline > .now() {
            schedule(at: deadline, context: context)
        } else if !context.channel.isWritable {
            wait(context: context)
        } else {
            context.close(promise: nil)
        }
    }
}
