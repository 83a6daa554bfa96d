import Foundation
import Locking
import NIOCore
import NIOPosix

/// A real forward proxy on 127.0.0.1 for the tests of proxied downloads: it answers HTTP's
/// `CONNECT host:port` (what AsyncHTTPClient sends through an HTTP proxy, for http and https
/// targets alike) by opening a TCP connection to the target and relaying bytes both ways, and
/// records each target asked for. With credentials, a `CONNECT` without the matching
/// `Proxy-Authorization: Basic …` is answered 407; any other method 405.
public final class LoopbackProxyServer: Sendable {
    private let channel = Mutex<(any Channel)?>(nil)
    private let boundPort = Mutex(0)
    private let log = Mutex<[String]>([])
    /// The `Proxy-Authorization` a `CONNECT` must carry, or nil for none.
    let requiredAuthorization: String?

    private init(requiredAuthorization: String?) {
        self.requiredAuthorization = requiredAuthorization
    }

    /// Starts a proxy on a port the system picks, asking for `username` and `password` when given.
    public static func start(username: String? = nil, password: String? = nil) async throws -> LoopbackProxyServer {
        let authorization = username.map { "Basic " + Data("\($0):\(password ?? "")".utf8).base64EncodedString() }
        let proxy = LoopbackProxyServer(requiredAuthorization: authorization)
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(LoopbackProxyConnectHandler(proxy: proxy))
                }
            }
        let channel = try await bootstrap.bind(host: "127.0.0.1", port: 0).get()
        proxy.channel.withLock { $0 = channel }
        proxy.boundPort.withLock { $0 = channel.localAddress?.port ?? 0 }
        return proxy
    }

    /// Closes the listening socket.
    public func stop() async throws {
        try await channel.withLock { $0 }?.close()
    }

    /// The port the proxy listens on.
    public var port: Int { boundPort.withLock { $0 } }

    /// The `host:port` of every `CONNECT` answered 200, in order.
    public var tunnels: [String] { log.withLock { $0 } }

    /// Records a tunnel opened to `target`.
    func opened(_ target: String) {
        log.withLock { $0.append(target) }
    }
}

/// Reads one connection's `CONNECT` head, then relays it to the target (``LoopbackTunnelHandler``).
final class LoopbackProxyConnectHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let proxy: LoopbackProxyServer
    private var head = ByteBuffer()
    private var connecting = false

    init(proxy: LoopbackProxyServer) {
        self.proxy = proxy
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        head.writeBuffer(&bytes)
        guard !connecting, let text = head.getString(at: head.readerIndex, length: head.readableBytes),
              let end = text.range(of: "\r\n\r\n") else {
            if head.readableBytes > 16 << 10 { context.close(promise: nil) }
            return
        }
        connecting = true
        let lines = text[..<end.lowerBound].components(separatedBy: "\r\n")
        let parts = lines.first?.split(separator: " ") ?? []
        guard parts.count == 3, parts[0] == "CONNECT" else { return answer("405 Method Not Allowed", context: context) }
        let authorization = lines.dropFirst().first { $0.lowercased().hasPrefix("proxy-authorization:") }
            .map { $0.dropFirst("proxy-authorization:".count).trimmingCharacters(in: .whitespaces) }
        if let required = proxy.requiredAuthorization, authorization != required {
            return answer("407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"test\"", context: context)
        }
        let target = String(parts[1])
        guard let colon = target.lastIndex(of: ":"), let port = Int(target[target.index(after: colon)...]) else {
            return answer("400 Bad Request", context: context)
        }
        let host = String(target[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        head.moveReaderIndex(forwardBy: text.utf8.distance(from: text.startIndex, to: end.upperBound))
        let early = head
        let inbound = context.channel
        ClientBootstrap(group: context.eventLoop).connect(host: host, port: port).assumeIsolated().whenComplete { [self] result in
            switch result {
            case .failure:
                answer("502 Bad Gateway", context: context)
            case .success(let outbound):
                proxy.opened(target)
                context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: "HTTP/1.1 200 Connection Established\r\n\r\n")), promise: nil)
                outbound.eventLoop.execute {
                    try? outbound.pipeline.syncOperations.addHandler(LoopbackTunnelHandler(peer: inbound))
                    if early.readableBytes > 0 { outbound.writeAndFlush(early, promise: nil) }
                }
                try? context.pipeline.syncOperations.addHandler(LoopbackTunnelHandler(peer: outbound))
                context.pipeline.syncOperations.removeHandler(self, promise: nil)
            }
        }
    }

    /// Answers `status` (and any fields after it) and closes the connection.
    private func answer(_ status: String, context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: "HTTP/1.1 \(status)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")))
            .assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }
}

/// Relays what one side of a tunnel reads to the other, and closes the other when it closes.
final class LoopbackTunnelHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let peer: any Channel

    init(peer: any Channel) {
        self.peer = peer
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        peer.writeAndFlush(unwrapInboundIn(data), promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        peer.close(promise: nil)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
