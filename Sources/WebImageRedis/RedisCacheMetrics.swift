import CoreMetrics

/// The swift-metrics a ``RedisImageCache`` reports through the factory it was given (the
/// process's bootstrapped one by default): hits, misses and errors as counters, and how long
/// each operation took, failures included, as a timer per operation.
struct RedisCacheMetrics: Sendable {
    let hits: Counter
    let misses: Counter
    let errors: Counter
    private let durations: [RedisCacheOperation: CoreMetrics.Timer]

    init(factory: any MetricsFactory) {
        hits = Counter(label: RedisImageCache.hitsMetric, factory: factory)
        misses = Counter(label: RedisImageCache.missesMetric, factory: factory)
        errors = Counter(label: RedisImageCache.errorsMetric, factory: factory)
        durations = Dictionary(uniqueKeysWithValues: RedisCacheOperation.allCases.map { operation in
            (operation, CoreMetrics.Timer(label: RedisImageCache.durationMetric, dimensions: [("operation", operation.rawValue)],
                                          factory: factory))
        })
    }

    /// Records that `operation` took `duration`.
    func record(_ operation: RedisCacheOperation, took duration: Duration) {
        let (seconds, attoseconds) = duration.components
        durations[operation]?.recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
