import Hummingbird
import NIOCore
import NIOHTTPTypes

/// Answers requests for results the memory cache holds (and `/health` and `/metrics`) as soon as
/// they are read, on the connection's event loop, and passes every other request on to Hummingbird, whose responder
/// answers it in a task. A cached result is the server's most frequent answer and needs neither
/// waiting nor I/O, so it skips the hand-over to a task and back, which costs more than the
/// answer itself.
///
/// It sits between the HTTP codec and Hummingbird's connection handling. Responses keep the
/// order of their requests: a request is answered here only when every request passed on before
/// it has been answered. Requests that close the connection (`Connection: close`) and everything
/// after the server starts shutting down are passed on, so Hummingbird closes connections as usual.
final class MemoryHitHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// Works out the answers.
    private let responder: ImageServerResponder
    /// The `Server` field of answers, as Hummingbird writes it on the others; nil for none.
    private let serverName: String?
    /// The `Date` field of answers.
    private let clock: HTTPDateClock
    /// Requests passed on whose responses have not ended yet.
    private var requestsPassedOn = 0
    /// Whether the rest of a request answered here (its body, its end) is being read and dropped.
    private var isDroppingRequest = false
    /// Whether the server is shutting down.
    private var isQuiescing = false

    /// A handler answering with `responder`, naming `serverName` in `Server`, dating answers by `clock`.
    init(responder: ImageServerResponder, serverName: String?, clock: HTTPDateClock) {
        self.responder = responder
        self.serverName = serverName
        self.clock = clock
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            if requestsPassedOn == 0, !isQuiescing, !Self.closesConnection(request),
               let answer = responder.immediateAnswer(to: request) {
                isDroppingRequest = true
                write(answer, context: context)
            } else {
                requestsPassedOn += 1
                context.fireChannelRead(data)
            }
        case .body where isDroppingRequest:
            break
        case .end where isDroppingRequest:
            isDroppingRequest = false
        case .body, .end:
            context.fireChannelRead(data)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            requestsPassedOn -= 1
        }
        context.write(data, promise: promise)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent {
            isQuiescing = true
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// Writes `answer` with the `Date` and `Server` fields Hummingbird adds to its responses.
    private func write(_ answer: PreparedResponse, context: ChannelHandlerContext) {
        var head = answer.head
        head.headerFields[.date] = clock.now
        if let serverName {
            head.headerFields[.server] = serverName
        }
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if let body = answer.body {
            context.write(wrapOutboundOut(.body(body)), promise: nil)
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    /// Whether `request` asks to close the connection after its response.
    private static func closesConnection(_ request: HTTPRequest) -> Bool {
        request.headerFields[values: .connection].contains { $0.lowercased().contains("close") }
    }
}
