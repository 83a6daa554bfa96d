import Locking
import NIOCore
import NIOPosix

/// A Redis client over one SwiftNIO connection, made on first use and made again after it
/// breaks: no pool, no pipelining beyond what concurrent callers queue on the connection.
///
/// Every wait is bounded by the configuration's timeouts. A command that times out closes the
/// connection, so that its late reply cannot answer another command. After a failed connection
/// attempt or a command that timed out, commands fail at once for
/// ``RedisConfiguration/retryInterval``, then the next one connects anew: a Redis that accepts
/// connections and never answers costs one command timeout per interval, not one per command.
/// Call ``close()`` when done with it: an open connection keeps the client alive.
public final class RedisClient: Sendable {
    /// Where it connects and how long it waits.
    public let configuration: RedisConfiguration
    private let group: any EventLoopGroup
    /// Whether Redis answers, as the caches over this client last saw it: one outage, one
    /// warning, however many caches share the connection.
    let health = RedisHealth()
    private let state = Mutex<ConnectionState>(ConnectionState())

    private struct ConnectionState {
        var channel: EventLoopFuture<any Channel>?
        var retryAfter: NIODeadline?
    }

    /// A client for `configuration`, on `eventLoopGroup` (NIO's shared group by default).
    public init(configuration: RedisConfiguration = RedisConfiguration(),
                eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) {
        self.configuration = configuration
        group = eventLoopGroup
    }

    /// Closes the connection, if there is one; the next command opens another.
    public func close() async {
        let channel = state.withLock { state in
            defer { state.channel = nil }
            return state.channel
        }
        guard let channel else { return }
        try? await channel.flatMap { $0.close() }.get()
    }

    /// The value of `key`, or nil when it does not exist.
    public func get(_ key: String) async throws(RedisError) -> ByteBuffer? {
        switch try await run(.get(key)) {
        case .bulkString(let value): return value
        case .null: return nil
        case let other: throw .protocolViolation("GET answered \(other)")
        }
    }

    /// The values of `keys` in order, nil for each that does not exist: one round trip (`MGET`).
    public func get(_ keys: [String]) async throws(RedisError) -> [ByteBuffer?] {
        guard case .array(let replies) = try await run(.mget(keys)), replies.count == keys.count else {
            throw .protocolViolation("MGET answered an unexpected reply")
        }
        var values: [ByteBuffer?] = []
        for reply in replies {
            switch reply {
            case .bulkString(let value): values.append(value)
            case .null: values.append(nil)
            case let other: throw .protocolViolation("MGET answered \(other)")
            }
        }
        return values
    }

    /// Sets `key` to `value`, expiring after `ttl` (at least a millisecond).
    public func set(_ key: String, to value: ByteBuffer, expiringAfter ttl: Duration) async throws(RedisError) {
        let milliseconds = max(1, ttl.components.seconds * 1000 + ttl.components.attoseconds / 1_000_000_000_000_000)
        try await expectOK(run(.set(key, value, expiringAfterMilliseconds: milliseconds)), "SET")
    }

    /// Deletes `keys`; returns how many existed.
    @discardableResult
    public func delete(_ keys: [String]) async throws(RedisError) -> Int {
        try await integer(run(.del(keys)), "DEL")
    }

    /// Whether `key` exists.
    public func exists(_ key: String) async throws(RedisError) -> Bool {
        try await integer(run(.exists(key)), "EXISTS") > 0
    }

    /// The keys matching the glob `pattern`, read page by page with `SCAN` (which never blocks
    /// the server the way `KEYS` does).
    public func keys(matching pattern: String) async throws(RedisError) -> [String] {
        var cursor = "0"
        var found: [String] = []
        repeat {
            guard case .array(let page) = try await run(.scan(cursor: cursor, match: pattern, count: 1000)),
                  page.count == 2, case .bulkString(let next) = page[0], case .array(let keys) = page[1]
            else { throw .protocolViolation("SCAN answered an unexpected page") }
            cursor = String(buffer: next)
            for case .bulkString(let key) in keys { found.append(String(buffer: key)) }
        } while cursor != "0"
        return found
    }

    /// Sends `PING`: succeeds when the server answers.
    public func ping() async throws(RedisError) {
        guard case .simpleString("PONG") = try await run(.ping) else { throw .protocolViolation("PING not answered with PONG") }
    }

    private func expectOK(_ reply: RESPValue, _ command: String) throws(RedisError) {
        guard case .simpleString("OK") = reply else { throw .protocolViolation("\(command) answered \(reply)") }
    }

    private func integer(_ reply: RESPValue, _ command: String) throws(RedisError) -> Int {
        guard case .integer(let value) = reply else { throw .protocolViolation("\(command) answered \(reply)") }
        return value
    }

    /// Sends `command` on the connection (made if needed) and waits for its reply, at most the
    /// command timeout; an error line comes back as ``RedisError/server(_:)``.
    private func run(_ command: RedisCommand) async throws(RedisError) -> RESPValue {
        let reply: RESPValue
        let connection = connection()
        do {
            reply = try await send(command, on: connection.get()).get()
        } catch RedisError.timedOut {
            backOff(after: connection)
            throw .timedOut
        } catch let error as RedisError {
            throw error
        } catch {
            throw .unavailable("\(error)")
        }
        if case .error(let message) = reply { throw .server(message) }
        return reply
    }

    private func send(_ command: RedisCommand, on channel: any Channel) -> EventLoopFuture<RESPValue> {
        let reply = channel.eventLoop.makePromise(of: RESPValue.self)
        let timeout = channel.eventLoop.scheduleTask(in: TimeAmount(configuration.commandTimeout)) {
            reply.fail(RedisError.timedOut)
            channel.close(promise: nil)
        }
        reply.futureResult.whenComplete { _ in timeout.cancel() }
        channel.writeAndFlush(RedisRequest(command: command, reply: reply)).whenFailure { _ in
            reply.fail(RedisError.connectionClosed)
        }
        return reply.futureResult
    }

    /// The open connection, or a new one (with the database selected), or a failure at once
    /// while the retry interval after a failed attempt runs.
    private func connection() -> EventLoopFuture<any Channel> {
        let (future, isNew): (EventLoopFuture<any Channel>, Bool) = state.withLock { state in
            if let channel = state.channel { return (channel, false) }
            if let retryAfter = state.retryAfter, NIODeadline.now() < retryAfter {
                return (group.next().makeFailedFuture(RedisError.unavailable("retrying after a failed connection attempt")), false)
            }
            let channel = connect()
            state.channel = channel
            return (channel, true)
        }
        guard isNew else { return future }
        future.whenComplete { [self] result in
            switch result {
            case .failure: forget(future, retryAfter: .now() + TimeAmount(configuration.retryInterval))
            case .success(let channel): channel.closeFuture.whenComplete { _ in self.forget(future, retryAfter: nil) }
            }
        }
        return future
    }

    private func connect() -> EventLoopFuture<any Channel> {
        let database = configuration.database
        return ClientBootstrap(group: group)
            .connectTimeout(TimeAmount(configuration.connectTimeout))
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers(
                        ByteToMessageHandler(RESPDecoder()), RedisCommandHandler())
                }
            }
            .connect(host: configuration.host, port: configuration.port)
            .flatMap { [self] channel in
                guard database != 0 else { return channel.eventLoop.makeSucceededFuture(channel) }
                return send(.select(database), on: channel).flatMapThrowing { reply in
                    guard case .simpleString("OK") = reply else {
                        channel.close(promise: nil)
                        throw RedisError.server("SELECT \(database) answered \(reply)")
                    }
                    return channel
                }
            }
    }

    /// After a command timed out on `channel` (which the timeout closes): unless another
    /// connection has replaced it, commands fail at once for the retry interval.
    private func backOff(after channel: EventLoopFuture<any Channel>) {
        state.withLock { state in
            guard state.channel == nil || state.channel === channel else { return }
            state.channel = nil
            state.retryAfter = .now() + TimeAmount(configuration.retryInterval)
        }
    }

    /// Drops `channel` if it is still the current connection, so that the next command connects.
    private func forget(_ channel: EventLoopFuture<any Channel>, retryAfter: NIODeadline?) {
        state.withLock { state in
            guard state.channel === channel else { return }
            state.channel = nil
            state.retryAfter = retryAfter
        }
    }
}
