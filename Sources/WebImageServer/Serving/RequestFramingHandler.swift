import Hummingbird
import NIOCore
import NIOHTTPTypes

/// Refuses a request whose head is one no image request has, before any other handler reads
/// it, and closes its connection after the refusal, as nginx does: a request target longer
/// than ``maxTargetLength`` (414), and a `Transfer-Encoding` whose last coding is not
/// `chunked` (400: its body runs to the end of the connection, so no later request on it can
/// be told apart from that body). What the HTTP parser refuses itself (`Content-Length` with
/// `Transfer-Encoding`, repeated or malformed `Content-Length`, more than ``maxFields`` fields
/// or ``maxHeadBytes``) is answered 400 by Hummingbird, which closes the connection too.
///
/// The refusal keeps the order of answers: written once every request passed on before it
/// has been answered; nothing read after the refused head is passed on, not even the parser's
/// own error about it (llhttp refuses such a `Transfer-Encoding` too, after the head), so that
/// the client gets one answer. The connection closes once the refusal is sent, or after
/// ``closeWithin`` when a client that reads nothing keeps it from being sent.
final class RequestFramingHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// The most bytes of field lines a request head may have, and of any one line, the
    /// request line included (64 KiB): the HTTP parser refuses a longer head before reading on.
    static let maxHeadBytes = 64 << 10
    /// The most header fields a request may have (100, as Apache's `LimitRequestFields`).
    static let maxFields = 100
    /// How long a refused connection may stay open for its refusal to be sent.
    static let closeWithin = TimeAmount.seconds(5)

    /// The longest request target answered (path and query, as sent).
    private let maxTargetLength: Int
    /// Requests passed on whose responses have not ended.
    private var unanswered = 0
    /// Once a head is refused: its answer, until written; then nothing more is read.
    private var pendingRefusal: PreparedResponse?
    /// Whether the refusal has been written.
    private var isRefused = false

    /// A handler answering requests whose target is over `maxTargetLength` bytes with 414.
    init(maxTargetLength: Int) {
        self.maxTargetLength = maxTargetLength
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard pendingRefusal == nil, !isRefused else { return }
        if case .head(let request) = unwrapInboundIn(data) {
            if let answer = refusal(of: request) {
                pendingRefusal = answer
                if unanswered == 0 { writeRefusal(context: context) }
                return
            }
            unanswered += 1
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        context.write(data, promise: promise)
        if case .end = unwrapOutboundIn(data) {
            unanswered = max(0, unanswered - 1)
            if unanswered == 0, pendingRefusal != nil { writeRefusal(context: context) }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // After a refusal, the parser's error about the same head would be a second answer.
        guard pendingRefusal == nil, !isRefused else { return }
        context.fireErrorCaught(error)
    }

    /// The answer refusing `request`, nil when its head is one the server reads.
    private func refusal(of request: HTTPRequest) -> PreparedResponse? {
        if let target = request.path, target.utf8.count > maxTargetLength {
            return Self.answer(.uriTooLong, "the request target is \(target.utf8.count) bytes, over the limit of \(maxTargetLength)")
        }
        let codings = request.headerFields[values: .transferEncoding].flatMap { $0.split(separator: ",") }
        if let last = codings.last, last.trimmingCharacters(in: .whitespaces).lowercased() != "chunked" {
            return Self.answer(.badRequest, "a Transfer-Encoding whose last coding is not chunked")
        }
        return nil
    }

    /// Writes the refusal and closes the connection once it is sent.
    private func writeRefusal(context: ChannelHandlerContext) {
        guard let answer = pendingRefusal else { return }
        pendingRefusal = nil
        isRefused = true
        context.write(wrapOutboundOut(.head(answer.head)), promise: nil)
        if let body = answer.body { context.write(wrapOutboundOut(.body(body)), promise: nil) }
        let closing = context.eventLoop.assumeIsolated().scheduleTask(in: Self.closeWithin) { context.close(promise: nil) }
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            closing.cancel()
            context.close(promise: nil)
        }
    }

    /// A refusal with `status` and the line `message`, as the responder's text answers are,
    /// closing the connection.
    private static func answer(_ status: HTTPResponse.Status, _ message: String) -> PreparedResponse {
        var answer = PreparedResponse.text(status, message, head: false)
        answer.head.headerFields[.connection] = "close"
        return answer
    }
}
