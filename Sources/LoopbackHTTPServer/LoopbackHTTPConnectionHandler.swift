import Foundation
import NIOCore
import NIOHTTP1

/// Serves one connection of ``LoopbackHTTPServer``: one request at a time, each response written
/// on the connection's event loop at the pace its ``LoopbackHTTPResponse`` asks for. A connection
/// that closes while a response is being written counts as an abort.
final class LoopbackHTTPConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let server: LoopbackHTTPServer
    private var head: HTTPRequestHead?
    /// The body of the request being read, up to 1 MiB.
    private var body: Data?
    /// The path whose response is being written.
    private var responding: String?

    init(server: LoopbackHTTPServer) {
        self.server = server
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = nil
        case .body(let part):
            guard (body?.count ?? 0) + part.readableBytes <= 1 << 20 else { break }
            // Appended in place, not copied whole for every part.
            var received = body ?? Data()
            body = nil
            received.append(contentsOf: part.readableBytesView)
            body = received
        case .end:
            guard let head else { return }
            self.head = nil
            respond(to: Self.request(from: head, body: body), keepAlive: head.isKeepAlive, context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let path = responding {
            responding = nil
            server.end(path, aborted: true)
        }
        context.fireChannelInactive()
    }

    private func respond(to request: LoopbackHTTPRequest, keepAlive: Bool, context: ChannelHandlerContext) {
        var response = server.begin(request)
        responding = request.path
        if response.isNotModified(for: request) {
            response = LoopbackHTTPResponse(status: 304, headers: response.headers.filter { $0.name.lowercased() != "content-type" })
        }
        let loop = context.eventLoop.assumeIsolated()
        let start = { [self] in
            loop.scheduleTask(in: Self.amount(response.headDelay)) { [self] in
                sendHead(of: response, path: request.path, keepAlive: keepAlive, context: context)
            }
        }
        guard let gate = response.gate else {
            _ = start()
            return
        }
        let eventLoop = context.eventLoop
        let held = NIOLoopBound(start, eventLoop: eventLoop)
        gate.whenOpen { eventLoop.execute { _ = held.value() } }
    }

    /// Sends the head of `response`, then its body, unless the client left meanwhile.
    private func sendHead(of response: LoopbackHTTPResponse, path: String, keepAlive: Bool, context: ChannelHandlerContext) {
        guard context.channel.isActive, responding == path else { return }
        var headers = HTTPHeaders(response.headers.map { ($0.name, $0.value) })
        if !response.neverEnds, !headers.contains(name: "content-length"), !headers.contains(name: "transfer-encoding") {
            headers.add(name: "Content-Length", value: String(response.chunks.reduce(0) { $0 + $1.count }))
        }
        if !keepAlive { headers.replaceOrAdd(name: "Connection", value: "close") }
        let head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: response.status), headers: headers)
        context.writeAndFlush(wrapOutboundOut(.head(head)), promise: nil)
        writeBody(response, from: 0, path: path, keepAlive: keepAlive, context: context)
    }

    private func writeBody(_ response: LoopbackHTTPResponse, from index: Int, path: String, keepAlive: Bool,
                           context: ChannelHandlerContext) {
        guard context.channel.isActive, responding == path else { return }
        guard index < response.chunks.count else {
            if response.neverEnds { return }
            if response.closesEarly {
                context.close(promise: nil)
                return
            }
            responding = nil
            server.end(path, aborted: false)
            let closes = !keepAlive
            context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
                if closes { context.close(promise: nil) }
            }
            return
        }
        let delay = index == 0 ? .zero : response.chunkDelay
        context.eventLoop.assumeIsolated().scheduleTask(in: Self.amount(delay)) { [self] in
            guard context.channel.isActive, responding == path else { return }
            let chunk = response.chunks[index]
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: chunk)))), promise: nil)
            writeBody(response, from: index + 1, path: path, keepAlive: keepAlive, context: context)
        }
    }

    private static func request(from head: HTTPRequestHead, body: Data?) -> LoopbackHTTPRequest {
        let parts = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var headers: [String: String] = [:]
        for (name, value) in head.headers {
            let key = name.lowercased()
            headers[key] = headers[key].map { "\($0), \(value)" } ?? value
        }
        return LoopbackHTTPRequest(method: head.method.rawValue, path: String(parts[0]),
                               query: parts.count > 1 ? String(parts[1]) : nil, headers: headers, body: body)
    }

    private static func amount(_ duration: Duration) -> TimeAmount {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
