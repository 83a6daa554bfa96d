import CoreMetrics
import Locking
import Logging

/// What the object storage tier counts (by ``Event``, readable and as swift-metrics counters)
/// and whether the store is answering: a run of failures logs one warning, the first success
/// after it one notice.
final class ObjectStorageCounters: Sendable {
    /// What is counted.
    enum Event: String, CaseIterable, Sendable {
        case hit = "hits", miss = "misses", write = "writes", error = "errors", dropped = "dropped_writes"
    }

    private let counts = Mutex([Event: Int]())
    private let failing = Mutex(false)
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

    /// Counts a failure; logs a warning when it starts an outage.
    func failed(_ error: any Error, operation: String, logger: Logger) {
        increment(.error)
        let starts = failing.withLock { failing in
            defer { failing = true }
            return !failing
        }
        if starts {
            logger.warning("the object storage tier is failing; requests go on from the other caches and the origin",
                           metadata: ["operation": "\(operation)", "error": "\(error)"])
        }
    }

    /// Notes a success; logs a notice when it ends an outage.
    func succeeded(logger: Logger) {
        let ends = failing.withLock { failing in
            defer { failing = false }
            return failing
        }
        if ends { logger.notice("the object storage tier answers again") }
    }
}
