import NIOCore

/// Cuts RESP2 replies out of the bytes a Redis connection receives, whole replies only.
struct RESPDecoder: ByteToMessageDecoder {
    typealias InboundOut = RESPValue

    /// Nesting deeper than this is refused: replies to the commands sent here are at most two deep.
    static let maximumDepth = 8

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        var reader = buffer
        guard let value = try Self.parse(&reader, depth: 0) else { return .needMoreData }
        buffer = reader
        context.fireChannelRead(wrapInboundOut(value))
        return .continue
    }

    /// The next whole value in `buffer`, consumed; nil (and `buffer` in an unspecified state)
    /// when more bytes are needed.
    static func parse(_ buffer: inout ByteBuffer, depth: Int) throws(RedisError) -> RESPValue? {
        guard depth <= maximumDepth else { throw .protocolViolation("replies nested more than \(maximumDepth) deep") }
        guard let type = buffer.readInteger(as: UInt8.self), let line = try readLine(&buffer) else { return nil }
        switch type {
        case UInt8(ascii: "+"): return .simpleString(line)
        case UInt8(ascii: "-"): return .error(line)
        case UInt8(ascii: ":"): return .integer(try integer(line))
        case UInt8(ascii: "$"):
            let length = try integer(line)
            if length == -1 { return .null }
            guard length >= 0 else { throw .protocolViolation("bulk string length \(length)") }
            guard buffer.readableBytes >= length + 2, let bytes = buffer.readSlice(length: length) else { return nil }
            guard buffer.readBytes(length: 2) == [13, 10] else { throw .protocolViolation("a bulk string not ended by CRLF") }
            return .bulkString(bytes)
        case UInt8(ascii: "*"):
            let count = try integer(line)
            if count == -1 { return .null }
            guard count >= 0 else { throw .protocolViolation("array length \(count)") }
            var elements: [RESPValue] = []
            for _ in 0..<count {
                guard let element = try parse(&buffer, depth: depth + 1) else { return nil }
                elements.append(element)
            }
            return .array(elements)
        default:
            throw .protocolViolation("reply type byte \(type)")
        }
    }

    /// The text up to the next CRLF, consumed with it; nil when no CRLF has arrived yet.
    private static func readLine(_ buffer: inout ByteBuffer) throws(RedisError) -> String? {
        let view = buffer.readableBytesView
        guard let cr = view.firstIndex(of: UInt8(ascii: "\r")), view.index(after: cr) < view.endIndex else { return nil }
        guard view[view.index(after: cr)] == UInt8(ascii: "\n") else { throw .protocolViolation("a line not ended by CRLF") }
        let line = buffer.readString(length: view.distance(from: view.startIndex, to: cr))
        buffer.moveReaderIndex(forwardBy: 2)
        return line
    }

    private static func integer(_ text: String) throws(RedisError) -> Int {
        guard let value = Int(text) else { throw .protocolViolation("\"\(text)\" is not an integer") }
        return value
    }
}
