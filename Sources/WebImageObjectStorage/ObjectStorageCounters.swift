import CoreMetrics
import Locking

/// What the object storage tier counts, by ``Event``: readable, and as swift-metrics counters.
final class ObjectStorageCounters: Sendable {
    /// What is counted.
    enum Event: String, CaseIterable, Sendable {
        case hit = "hits", miss = "misses", write = "writes", error = "errors", dropped = "dropped_writes"
    }

    private let counts = Mutex([Event: Int]())
    private let metrics: [Event: Counter]

    /// Counters made by `factory`, named `webimage_object_storage_EVENT_total`.
    init(factory: any MetricsFactory) {
        metrics = Dictionary(uniqueKeysWithValues: Event.allCases.map {
            ($0, Counter(label: "webimage_object_storage_\($0.rawValue)_total", dimensions: [], factory: factory))
        })
    }

    /// How many times `event` happened.
    func count(of event: Event) -> Int {
        counts.withLock { $0[event, default: 0] }
    }

    /// Counts `event`.
    func increment(_ event: Event) {
        counts.withLock { $0[event, default: 0] += 1 }
        metrics[event]?.increment()
    }
}
