import Foundation
import Locking

/// A clock the test moves by hand, readable as a wall-clock `Date` and a monotonic instant.
final class ManualClock: Sendable {
    private let offset = Mutex<Double>(0)
    private let baseDate: Date
    private let baseInstant = ContinuousClock.now

    /// A clock that starts at `start`.
    init(start: Date = Date()) {
        baseDate = start
    }

    /// Moves the clock forward by `seconds`.
    func advance(by seconds: Double) {
        offset.withLock { $0 += seconds }
    }

    /// The current wall-clock time.
    var date: Date { baseDate + offset.withLock { $0 } }

    /// The current monotonic time.
    var instant: ContinuousClock.Instant { baseInstant + .seconds(offset.withLock { $0 }) }
}
