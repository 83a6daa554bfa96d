extension RedisImageCache {
    /// Counter: queries Redis answered with an entry that decoded (or, for
    /// ``diskImageData(forKey:)``, with bytes).
    public static let hitsMetric = "webimage_redis_hits_total"
    /// Counter: queries Redis answered without an entry (or with one that no longer decodes).
    public static let missesMetric = "webimage_redis_misses_total"
    /// Counter: operations that failed because Redis was down, slow or answered an error.
    public static let errorsMetric = "webimage_redis_errors_total"
    /// Timer, with an `operation` dimension (`GET`, `SET`, `DEL`, `EXISTS`, `SCAN and DEL`):
    /// how long each operation took, failed ones included.
    public static let durationMetric = "webimage_redis_operation_duration_seconds"
}
