extension ServerConfiguration {
    /// Where sources and results are kept: the local disk and a Redis shared by instances.
    public struct CacheSettings: Sendable, Equatable {
        /// The folder of the source and result disk caches (``ServerConfiguration/cacheSubfolders``); nil: sources
        /// in WebImage's default cache folder, results in memory only. Both stay within ``cacheSize``.
        public var cacheDir: String?
        /// The most bytes the local disk caches hold, sources and results half each; trimmed
        /// in the background, the least recently used entries first.
        public var cacheSize = 1 << 30
        /// A Redis shared by instances (`redis://HOST[:PORT][/DB]`), or nil for local caches only.
        public var redisURL: String?
        /// Seconds an entry lives in Redis.
        public var redisTTL = 7 * 24 * 3600

        /// The defaults.
        public init() {}
    }
}
