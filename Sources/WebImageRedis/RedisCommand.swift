import NIOCore

/// A Redis command and its arguments, encoded as RESP2 sends them: an array of bulk strings.
struct RedisCommand: Sendable {
    /// The command name first, then its arguments.
    let arguments: [ByteBuffer]

    init(_ words: [String], payload: ByteBuffer? = nil) {
        arguments = words.map { ByteBuffer(string: $0) } + (payload.map { [$0] } ?? [])
    }

    /// `GET key`.
    static func get(_ key: String) -> RedisCommand { RedisCommand(["GET", key]) }
    /// `SET key value PX milliseconds`: `value` expiring after `milliseconds`.
    static func set(_ key: String, _ value: ByteBuffer, expiringAfterMilliseconds milliseconds: Int64) -> RedisCommand {
        RedisCommand(["SET", key], payload: value).appending(["PX", String(milliseconds)])
    }
    /// `MGET key…`.
    static func mget(_ keys: [String]) -> RedisCommand { RedisCommand(["MGET"] + keys) }
    /// `DEL key…`.
    static func del(_ keys: [String]) -> RedisCommand { RedisCommand(["DEL"] + keys) }
    /// `EXISTS key`.
    static func exists(_ key: String) -> RedisCommand { RedisCommand(["EXISTS", key]) }
    /// `SCAN cursor MATCH pattern COUNT count`.
    static func scan(cursor: String, match pattern: String, count: Int) -> RedisCommand {
        RedisCommand(["SCAN", cursor, "MATCH", pattern, "COUNT", String(count)])
    }
    /// `SELECT database`.
    static func select(_ database: Int) -> RedisCommand { RedisCommand(["SELECT", String(database)]) }
    /// `PING`.
    static let ping = RedisCommand(["PING"])

    private init(arguments: [ByteBuffer]) { self.arguments = arguments }

    private func appending(_ words: [String]) -> RedisCommand {
        RedisCommand(arguments: arguments + words.map { ByteBuffer(string: $0) })
    }

    /// Writes the command into `buffer`.
    func encode(into buffer: inout ByteBuffer) {
        buffer.writeString("*\(arguments.count)\r\n")
        for argument in arguments {
            buffer.writeString("$\(argument.readableBytes)\r\n")
            buffer.writeImmutableBuffer(argument)
            buffer.writeString("\r\n")
        }
    }
}
