/// How the manager loads one image: SDWebImage's `SDWebImageOptions`, under the same names.
public struct WebImageOptions: OptionSet, Sendable, Hashable {
    /// The options as bits.
    public let rawValue: UInt32

    /// Options from their bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Try a URL again even though it failed for good before (it is on the failed-URL list).
    public static let retryFailed = WebImageOptions(rawValue: 1 << 0)
    /// Queue the download at low priority.
    public static let lowPriority = WebImageOptions(rawValue: 1 << 1)
    /// Queue the download at high priority.
    public static let highPriority = WebImageOptions(rawValue: 1 << 2)
    /// Deliver partial images while the download arrives. Partial images are never cached.
    public static let progressiveLoad = WebImageOptions(rawValue: 1 << 3)
    /// Answer from the cache at once, then revalidate with the server (ETag / Last-Modified):
    /// a 304 finishes with the cached image, a 200 delivers and caches the new one.
    public static let refreshCached = WebImageOptions(rawValue: 1 << 4)
    /// Send and store cookies for the request.
    public static let handleCookies = WebImageOptions(rawValue: 1 << 5)
    /// Accept any TLS certificate. For testing against self-signed servers only.
    public static let allowInvalidSSLCertificates = WebImageOptions(rawValue: 1 << 6)
    /// Target binding: show the placeholder only after the load failed.
    public static let delayPlaceholder = WebImageOptions(rawValue: 1 << 7)
    /// Apply the transformer to animated images too (frame by frame); by default they are left alone.
    public static let transformAnimatedImage = WebImageOptions(rawValue: 1 << 8)
    /// Target binding: do not set the image on the target; the completion does it.
    public static let avoidAutoSetImage = WebImageOptions(rawValue: 1 << 9)
    /// Decode large images smaller, to fit ``ImageManager/scaleDownLimitBytes`` unless the
    /// context's decode options name a limit.
    public static let scaleDownLargeImages = WebImageOptions(rawValue: 1 << 10)
    /// On a memory hit, also read the encoded bytes from disk.
    public static let queryMemoryData = WebImageOptions(rawValue: 1 << 11)
    /// Answer memory hits synchronously. Memory hits are always answered without waiting in
    /// WebImage (a lock, not an actor hop), so this is accepted for compatibility.
    public static let queryMemoryDataSync = WebImageOptions(rawValue: 1 << 12)
    /// Read the disk on the loading task rather than the cache's I/O executor.
    public static let queryDiskDataSync = WebImageOptions(rawValue: 1 << 13)
    /// Only look in the cache: a miss fails with ``WebImageError/notInCache``, no request is made.
    public static let fromCacheOnly = WebImageOptions(rawValue: 1 << 14)
    /// Skip the cache lookup and always load (the result is still stored).
    public static let fromLoaderOnly = WebImageOptions(rawValue: 1 << 15)
    /// Store only in memory, never on disk (SDWebImage's `cacheMemoryOnly`; the same as a
    /// context `storeCacheType` of `.memory`).
    public static let cacheMemoryOnly = WebImageOptions(rawValue: 1 << 22)
    /// Decode only the first frame of an animation.
    public static let decodeFirstFrameOnly = WebImageOptions(rawValue: 1 << 16)
    /// Decode every frame of an animation before completing. Frames are always decoded up
    /// front today, so this is what already happens.
    public static let preloadAllFrames = WebImageOptions(rawValue: 1 << 17)
    /// Complete only after the disk store has finished. A store that fails (read-only folder,
    /// full disk) is logged through ``ImageManager/logger``; the load still succeeds.
    public static let waitStoreCache = WebImageOptions(rawValue: 1 << 18)
    /// Target binding: a new load does not cancel the target's running one.
    public static let avoidAutoCancelImage = WebImageOptions(rawValue: 1 << 19)
    /// iOS only (background task); accepted and ignored on Linux.
    public static let continueInBackground = WebImageOptions(rawValue: 1 << 20)
    /// Target binding: run the target's ``ImageTransition`` for cache hits too, not only for
    /// downloaded images.
    public static let forceTransition = WebImageOptions(rawValue: 1 << 21)
}
