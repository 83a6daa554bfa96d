import ArgumentParser
import Foundation
import WebImageRedis

/// `webimage serve`'s cache tier shared between instances: `--redis` and `--redis-ttl`.
struct SharedTierOptions: ParsableArguments {
    @Option(name: .customLong("redis"), help: ArgumentHelp(
        "A Redis shared by instances, as the cache tier below the local disk (default: $WEBIMAGE_REDIS_URL; none: local caches only).",
        valueName: "redis://HOST[:PORT][/DB]"))
    var url: String?

    @Option(name: .customLong("redis-ttl"), help: ArgumentHelp(
        "Seconds an entry lives in Redis (default: $WEBIMAGE_REDIS_TTL or 7 days).", valueName: "SECONDS"))
    var ttl: Int?

    /// The tier the options (else `environment`) describe, or nil when they name no Redis.
    func makeTier(_ environment: [String: String]) throws -> SharedTier? {
        guard let url = url ?? environment["WEBIMAGE_REDIS_URL"] else { return nil }
        let configuration: RedisConfiguration
        do {
            configuration = try RedisConfiguration(url: url)
        } catch {
            throw CommandFailure("--redis: \(error)")
        }
        let seconds: Int
        if let ttl {
            seconds = ttl
        } else if let text = environment["WEBIMAGE_REDIS_TTL"] {
            guard let value = Int(text) else { throw CommandFailure("WEBIMAGE_REDIS_TTL is not a number") }
            seconds = value
        } else {
            seconds = 7 * 24 * 3600
        }
        guard seconds > 0 else { throw CommandFailure("--redis-ttl must be a positive number of seconds") }
        return SharedTier(client: RedisClient(configuration: configuration), timeToLive: .seconds(seconds))
    }
}
