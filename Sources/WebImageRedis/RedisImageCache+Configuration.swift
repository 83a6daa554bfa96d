extension RedisImageCache {
    /// What the Redis tier stores and for how long. Eviction under memory pressure is Redis's
    /// own: run it with `maxmemory` and `maxmemory-policy allkeys-lru`.
    public struct Configuration: Sendable, Hashable {
        /// Put before every cache key, so that several caches (or other data) can share one
        /// database; `webimage:` by default.
        public var namespace: String
        /// How long an entry lives; 7 days by default.
        public var timeToLive: Duration
        /// Entries larger than this stay local (not stored in Redis); 1 MiB by default.
        public var maximumEntryBytes: Int
        /// Whether HTTP validators are kept with the entries (beside each one, under its Redis
        /// key followed by a NUL and `validators`, for the same time to live); off by default,
        /// where they stay with the local disk tier. On for results whose `Last-Modified`
        /// every instance must answer alike.
        public var keepsValidators: Bool

        /// A configuration with the given values.
        public init(namespace: String = "webimage:", timeToLive: Duration = .seconds(7 * 24 * 3600),
                    maximumEntryBytes: Int = 1 << 20, keepsValidators: Bool = false) {
            self.namespace = namespace
            self.timeToLive = timeToLive
            self.maximumEntryBytes = maximumEntryBytes
            self.keepsValidators = keepsValidators
        }
    }
}
