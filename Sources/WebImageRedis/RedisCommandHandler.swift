import NIOCore

/// A command on its way out, with the promise its reply completes.
struct RedisRequest: Sendable {
    let command: RedisCommand
    let reply: EventLoopPromise<RESPValue>
}

/// Sends commands and completes their promises with the replies, which Redis sends in the
/// order of the commands. When the connection ends or breaks, every waiting promise fails.
final class RedisCommandHandler: ChannelDuplexHandler {
    typealias InboundIn = RESPValue
    typealias OutboundIn = RedisRequest
    typealias OutboundOut = ByteBuffer

    private var waiting = CircularBuffer<EventLoopPromise<RESPValue>>()

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let request = unwrapOutboundIn(data)
        var buffer = context.channel.allocator.buffer(capacity: 64)
        request.command.encode(into: &buffer)
        waiting.append(request.reply)
        context.write(wrapOutboundOut(buffer), promise: promise)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let reply = waiting.popFirst() else {
            failAll(.protocolViolation("a reply to no command"), context: context)
            return
        }
        reply.succeed(unwrapInboundIn(data))
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        failAll((error as? RedisError) ?? .protocolViolation("\(error)"), context: context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        failAll(.connectionClosed, context: nil)
        context.fireChannelInactive()
    }

    private func failAll(_ error: RedisError, context: ChannelHandlerContext?) {
        while let reply = waiting.popFirst() { reply.fail(error) }
        context?.close(promise: nil)
    }
}
