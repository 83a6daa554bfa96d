import NIOCore
import NIOHTTPTypes

/// Closes a connection whose answer is not written in time (imgproxy's
/// `IMGPROXY_WRITE_RESPONSE_TIMEOUT`): from the moment an answer's head is written, its last
/// byte must reach the kernel within the limit, or the connection closes and what is still
/// queued for it is dropped. A client that stops reading cannot hold a connection, and the
/// answer's bytes queued for it, for ever. As Go's write deadline (imgproxy's), the limit is
/// for the whole answer, however steadily a slow client reads it.
///
/// An answer costs one timer, set at its head and cancelled once its end is written.
final class ResponseWriteDeadlineHandler: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// How long an answer may take to be written, from its head to its end.
    private let limit: TimeAmount
    /// The timer of the answer being written; nil between answers.
    private var timer: Scheduled<Void>?
    /// Counts answers, so that the end of an earlier one cannot cancel a later one's timer.
    private var answer = 0

    /// A handler giving each answer `limit` to be written.
    init(limit: TimeAmount) {
        self.limit = limit
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head:
            answer += 1
            timer?.cancel()
            let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
            timer = context.eventLoop.scheduleTask(in: limit) { loopBound.value.close(promise: nil) }
            context.write(data, promise: promise)
        case .end:
            let written = promise ?? context.eventLoop.makePromise()
            let ended = answer
            let loopBound = NIOLoopBound(self, eventLoop: context.eventLoop)
            written.futureResult.whenSuccess {
                let handler = loopBound.value
                guard handler.answer == ended else { return }
                handler.timer?.cancel()
                handler.timer = nil
            }
            context.write(data, promise: written)
        case .body:
            context.write(data, promise: promise)
        }
    }
}
