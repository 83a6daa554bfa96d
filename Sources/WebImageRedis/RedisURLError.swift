/// Why a `redis://` URL does not make a ``RedisConfiguration``. The descriptions never repeat
/// the URL, which may hold a password.
public enum RedisURLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not a URL at all, or with a query or fragment.
    case malformed
    /// A scheme other than `redis` (`rediss`, TLS, included).
    case unsupportedScheme(String)
    /// A user name or password: the client does not authenticate.
    case credentials
    /// A port outside 1…65535.
    case invalidPort
    /// A path that is not a database number.
    case invalidDatabase(String)

    public var description: String {
        switch self {
        case .malformed: "the Redis URL is not of the form redis://HOST[:PORT][/DATABASE]"
        case .unsupportedScheme(let scheme): "the Redis URL's scheme \(scheme) is not supported (only redis://, without TLS)"
        case .credentials: "the Redis URL holds credentials, but the client does not authenticate (AUTH is not supported)"
        case .invalidPort: "the Redis URL's port is not within 1…65535"
        case .invalidDatabase(let path): "the Redis URL's path \"\(path.prefix(40))\" is not a database number"
        }
    }
}
