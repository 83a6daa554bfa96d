import Locking
import Metrics

/// The swift-metrics counters of one metric, one per value of a label (a status, a cache tier),
/// each made once, when its value is first counted, and kept: a request counts through a
/// dictionary lookup instead of asking the metrics factory for the counter by name and labels.
/// A value never counted has no counter, so it appears nowhere (Prometheus shows no sample).
final class CounterTable<Key: Hashable & Sendable>: Sendable {
    /// Makes the counter for a value the first time it is counted.
    private let make: @Sendable (Key) -> Counter
    /// The counters made so far.
    private let counters = Mutex<[Key: Counter]>([:])

    /// A table whose counter for a value `make` creates.
    init(_ make: @escaping @Sendable (Key) -> Counter) {
        self.make = make
    }

    /// Adds one to the counter of `key`, made now if this is its first count.
    func increment(_ key: Key) {
        counter(key).increment()
    }

    /// The counter of `key`, made on first use.
    func counter(_ key: Key) -> Counter {
        counters.withLock { counters in
            if let known = counters[key] { return known }
            let made = make(key)
            counters[key] = made
            return made
        }
    }
}
