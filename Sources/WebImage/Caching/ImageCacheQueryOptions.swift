/// How an ``ImageCaching`` query reads: which tiers, how to decode what comes from disk, and
/// SDWebImage's query options.
public struct ImageCacheQueryOptions: Sendable, Hashable {
    /// The tiers to look in (SDWebImage's `queryCacheType`); `.all` by default.
    public var cacheType: ImageCacheType
    /// How bytes read from disk are decoded (thumbnail size, scale, first frame only…).
    public var decodeOptions: ImageDecodeOptions
    /// On a memory hit, read the encoded bytes from disk too (SDWebImage's `queryMemoryData`).
    public var queryMemoryData: Bool
    /// Read the disk on the calling task instead of the cache's I/O executor
    /// (SDWebImage's `queryDiskDataSync`): for callers already off any latency-sensitive thread.
    public var queryDiskDataSync: Bool
    /// Whether a disk hit is written back to memory (when memory is one of the tiers asked):
    /// SDWebImage lets the load's store cache type decide, so a load that stores on disk only
    /// leaves memory alone. True by default.
    public var storesDiskHitsInMemory: Bool

    /// Options with the given values.
    public init(
        cacheType: ImageCacheType = .all, decodeOptions: ImageDecodeOptions = ImageDecodeOptions(),
        queryMemoryData: Bool = false, queryDiskDataSync: Bool = false, storesDiskHitsInMemory: Bool = true
    ) {
        self.cacheType = cacheType
        self.decodeOptions = decodeOptions
        self.queryMemoryData = queryMemoryData
        self.queryDiskDataSync = queryDiskDataSync
        self.storesDiskHitsInMemory = storesDiskHitsInMemory
    }
}
