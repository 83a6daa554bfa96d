/// Where a ``RedisClient`` connects and how long it waits: short, bounded waits, so that a slow
/// or absent Redis costs a load a few milliseconds rather than a stall.
public struct RedisConfiguration: Sendable, Hashable {
    /// The server's host name or address.
    public var host: String
    /// The server's TCP port; 6379 by default.
    public var port: Int
    /// The database index (`SELECT`); 0 by default.
    public var database: Int
    /// How long a connection attempt may take; 100 ms by default.
    public var connectTimeout: Duration
    /// How long a command may wait for its reply once sent; 100 ms by default. Past it the
    /// connection is closed (a late reply could otherwise answer the next command).
    public var commandTimeout: Duration
    /// After a failed connection attempt or a command that timed out, commands fail at once for
    /// this long instead of each waiting out its own attempt; 1 s by default.
    public var retryInterval: Duration

    /// A configuration with the given values.
    public init(host: String = "127.0.0.1", port: Int = 6379, database: Int = 0,
                connectTimeout: Duration = .milliseconds(100), commandTimeout: Duration = .milliseconds(100),
                retryInterval: Duration = .seconds(1)) {
        self.host = host
        self.port = port
        self.database = database
        self.connectTimeout = connectTimeout
        self.commandTimeout = commandTimeout
        self.retryInterval = retryInterval
    }
}
