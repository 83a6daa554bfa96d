/// What went wrong talking to Redis. ``RedisImageCache`` turns each into a miss (fail-open).
public enum RedisError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No connection could be made within the connect timeout (refused, unreachable, timed out),
    /// or a recent attempt failed and the retry interval has not passed yet.
    case unavailable(String)
    /// The server did not answer within the command timeout; the connection was closed.
    case timedOut
    /// The connection closed before the answer came.
    case connectionClosed
    /// The server answered with an error line.
    case server(String)
    /// The server sent bytes that are not RESP, or an answer of an unexpected type.
    case protocolViolation(String)

    public var description: String {
        switch self {
        case .unavailable(let reason): "Redis is unavailable: \(reason)"
        case .timedOut: "Redis did not answer within the command timeout"
        case .connectionClosed: "the connection to Redis closed before the answer came"
        case .server(let message): "Redis answered with an error: \(message)"
        case .protocolViolation(let detail): "Redis sent something unexpected: \(detail)"
        }
    }
}
