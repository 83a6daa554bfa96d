import WebImageRedis
import WebImageServer

/// The Redis tier of `webimage serve`: one client, with a cache of source bytes and one of
/// results over it, each in a namespace of its own so that their keys never meet. Results keep
/// their validators (when they were made), so that every instance answers one `Last-Modified`.
struct SharedTier {
    /// The connection both caches use; closed when the server stops.
    let client: RedisClient
    /// Source bytes, chained below the manager's local cache.
    let sources: RedisImageCache
    /// Encoded results, the processor's shared cache.
    let results: RedisImageCache

    /// The tier `configuration` names (its Redis URL and time to live), or nil when it names no Redis.
    init?(_ configuration: ImageServer.Configuration) throws {
        guard let url = configuration.caches.redisURL else { return nil }
        let redis: RedisConfiguration
        do {
            redis = try RedisConfiguration(url: url)
        } catch {
            throw CommandFailure("--redis: \(error)")
        }
        self.init(client: RedisClient(configuration: redis), timeToLive: .seconds(configuration.caches.redisTTL))
    }

    /// Caches over `client` whose entries live for `timeToLive`.
    init(client: RedisClient, timeToLive: Duration) {
        self.client = client
        sources = RedisImageCache(client: client, configuration: .init(namespace: "webimage:source:", timeToLive: timeToLive))
        results = RedisImageCache(client: client, configuration: .init(namespace: "webimage:result:", timeToLive: timeToLive,
                                                                       keepsValidators: true))
    }
}
