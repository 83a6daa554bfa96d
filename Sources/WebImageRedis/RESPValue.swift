import NIOCore

/// One reply of the Redis serialization protocol (RESP2): what a command answers.
enum RESPValue: Sendable, Equatable {
    /// A status line such as `OK` or `PONG`.
    case simpleString(String)
    /// An error line, such as `WRONGTYPE …` or `ERR unknown command`.
    case error(String)
    /// An integer, such as the number of keys `DEL` removed.
    case integer(Int)
    /// A binary-safe string: the value `GET` found.
    case bulkString(ByteBuffer)
    /// Several values, such as a `SCAN` page.
    case array([RESPValue])
    /// No value: `GET` of a missing key.
    case null
}
