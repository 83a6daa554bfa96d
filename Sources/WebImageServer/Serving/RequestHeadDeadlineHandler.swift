import NIOCore
import NIOHTTPTypes

/// Closes a connection that does not send a complete request head in time: from its opening
/// (imgproxy's `IMGPROXY_READ_REQUEST_TIMEOUT`), and from each answer until the next request
/// (`IMGPROXY_KEEP_ALIVE_TIMEOUT`, the keep-alive idle time). Slow-header clients cannot hold
/// connections for ever, and an idle keep-alive connection closes after its own time, counted
/// from its last answer; without keep-alive, each answer says `Connection: close` and the
/// connection closes once it is written. A connection with a request under way is never closed
/// here, and neither is one whose answer still queues for a slow client (its channel not
/// writable): the wait starts again once it drains.
///
/// A request costs this handler two assignments: the connection keeps one timer, which fires
/// at the earliest moment the deadline can pass, looks at the deadline then, and sets itself
/// again while it has not passed, rather than a timer cancelled and scheduled per request.
final class RequestHeadDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// How long a new connection may take to send its first request head.
    private let limit: TimeAmount
    /// How long a connection may stay idle after an answer, or nil for no keep-alive.
    private let idle: TimeAmount?
    /// When the connection closes unless a request head arrives first; nil while a request is
    /// under way.
    private var deadline: NIODeadline?
    /// The one timer, scheduled for the deadline (or a moment before it moved later); nil
    /// while none is due.
    private var timer: Scheduled<Void>?
    /// When ``timer`` fires.
    private var timerDue: NIODeadline?
    /// Requests whose heads arrived and whose answers have not ended.
    private var unanswered = 0

    /// A handler giving the first request head `limit` to arrive and each later one `idle`
    /// after the answer before it (nil: one request a connection).
    init(limit: TimeAmount, idle: TimeAmount?) {
        self.limit = limit
        self.idle = idle
    }

    func handlerAdded(context: ChannelHandlerContext) {
        wait(limit, context: context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        timerDue = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) {
            unanswered += 1
            deadline = nil
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head) where idle == nil:
            head.headerFields[.connection] = "close"
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end:
            unanswered = max(0, unanswered - 1)
            guard let idle else {
                // No keep-alive: the connection closes once its answer is written.
                let written = promise ?? context.eventLoop.makePromise()
                let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
                written.futureResult.whenComplete { _ in loopBound.value.close(promise: nil) }
                context.write(data, promise: written)
                return
            }
            if unanswered == 0 { wait(idle, context: context) }
            context.write(data, promise: promise)
        default:
            context.write(data, promise: promise)
        }
    }

    /// Starts the wait for the next request head: the deadline is `time` from now, and the
    /// timer is set unless one is already due no later.
    private func wait(_ time: TimeAmount, context: ChannelHandlerContext) {
        let due = NIODeadline.now() + time
        deadline = due
        if let timerDue, timerDue <= due { return }
        // An idle time shorter than the first head's: the timer moves earlier.
        timer?.cancel()
        schedule(at: due, context: context)
    }

    /// Sets the timer for `moment`, when it checks the deadline.
    private func schedule(at moment: NIODeadline, context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timerDue = moment
        timer = context.eventLoop.scheduleTask(deadline: moment) {
            let (handler, context) = loopBound.value
            handler.timer = nil
            handler.timerDue = nil
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
            wait(idle ?? limit, context: context)
        } else {
            context.close(promise: nil)
        }
    }
}
