/// What a ``RedisImageCache`` asks of Redis: the `operation` dimension of its latency timer
/// and the name its outage warning gives.
enum RedisCacheOperation: String, Sendable, CaseIterable {
    /// `GET`: a query, or a read of the bytes.
    case get = "GET"
    /// `SET … PX`: a store.
    case set = "SET"
    /// `DEL`: a removal.
    case delete = "DEL"
    /// `EXISTS`: a containment check.
    case exists = "EXISTS"
    /// `SCAN` then `DEL`: clearing the namespace.
    case clear = "SCAN and DEL"
}
