import Foundation

extension DiskCache {
    /// How a ``DiskCache`` expires, trims and stores (SDWebImage's `SDImageCacheConfig`, disk part).
    public struct Configuration: Sendable {
        /// Seconds an entry lives, measured from the date ``expireType`` names. Default one
        /// week; negative never expires; 0 makes every entry expired.
        public var maxAge: TimeInterval
        /// Which date ``maxAge`` counts from. Default ``ExpireType/accessDate``.
        public var expireType: ExpireType
        /// The most bytes (allocated sizes) the folder may hold; 0 = unlimited (the default).
        /// A store that passes it starts a background trim of the least recently used entries.
        public var maxSize: Int
        /// A trim deletes entries until the total is at most `maxSize × trimRatio` (default
        /// 0.5, as SDWebImage), so the next trims are far apart.
        public var trimRatio: Double
        /// Seconds between background maintenance passes (expiry, then size), which also run
        /// once at start-up; 0 = only at start-up. Default 10 minutes: expiry counts in days,
        /// and size trims are started by the writes that need them.
        public var autoTrimInterval: TimeInterval
        /// Folders searched, in order, after the cache's own on a read (SDWebImage's
        /// `addReadOnlyCachePath`). The cache never writes, stamps or trims them.
        public var additionalReadOnlyPaths: [URL]
        /// Whether extended data goes into the `user.webimage` extended attribute when the file
        /// system allows it (default). When false, or when the attribute is refused, it goes
        /// into a hidden sidecar file next to the entry.
        public var usesExtendedAttributes: Bool
        /// Whether each write is flushed with `fsync` before it is renamed into place, so it
        /// survives a power loss too (a process crash never leaves a torn file either way).
        public var syncsWrites: Bool
        /// How stale a file's access time on disk may be before a read rewrites it; default 60
        /// seconds. The cache's in-memory index keeps every read's exact time, so LRU trims and
        /// expiry in this process are exact; only a later process, which reads the times from the
        /// files, sees reads closer together than this in store order. 0 stamps every read.
        public var accessStampGranularity: TimeInterval
        /// Whether ``DiskCache/init(directory:configuration:)`` takes over a folder that holds
        /// files it did not write and has no `CACHEDIR.TAG` (default false: such a folder is
        /// refused with ``DiskCacheError/unownedFolder(path:foreignFile:)``). Even then the
        /// cache only ever touches files whose names it could have written, and it does not tag
        /// the folder.
        public var adoptsExistingFolder: Bool
        /// The current time, for stamps and expiry. Tests inject one.
        public var clock: @Sendable () -> Date

        /// A configuration; every parameter defaults to SDWebImage's choice.
        public init(
            maxAge: TimeInterval = 7 * 24 * 60 * 60, expireType: ExpireType = .accessDate, maxSize: Int = 0,
            trimRatio: Double = 0.5, autoTrimInterval: TimeInterval = 600, additionalReadOnlyPaths: [URL] = [],
            usesExtendedAttributes: Bool = true, syncsWrites: Bool = false, adoptsExistingFolder: Bool = false,
            accessStampGranularity: TimeInterval = 60, clock: @escaping @Sendable () -> Date = { Date() }
        ) {
            self.maxAge = maxAge
            self.expireType = expireType
            self.maxSize = maxSize
            self.trimRatio = trimRatio
            self.autoTrimInterval = autoTrimInterval
            self.additionalReadOnlyPaths = additionalReadOnlyPaths
            self.usesExtendedAttributes = usesExtendedAttributes
            self.syncsWrites = syncsWrites
            self.adoptsExistingFolder = adoptsExistingFolder
            self.accessStampGranularity = accessStampGranularity
            self.clock = clock
        }
    }
}
