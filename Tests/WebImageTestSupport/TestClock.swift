import Locking

/// A clock on virtual time for tests: time moves only when a task sleeps on it (straight to
/// that task's deadline) or the test calls ``advance(by:)``. Code that sleeps on it runs at
/// once and deterministically, and what it observed of time can be checked exactly.
public final class TestClock: Clock, Sendable {
    /// A point on the test clock: the time since it started.
    public struct Instant: InstantProtocol, Sendable, Hashable, Comparable {
        /// The time since the clock started.
        public var offset: Swift.Duration

        /// The instant `offset` after the clock's start.
        public init(offset: Swift.Duration) {
            self.offset = offset
        }

        public func advanced(by duration: Swift.Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        public func duration(to other: Instant) -> Swift.Duration {
            other.offset - offset
        }

        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }
    }

    private let current = Mutex(Instant(offset: .zero))

    /// A clock at time zero.
    public init() {}

    public var now: Instant { current.withLock { $0 } }

    public var minimumResolution: Swift.Duration { .zero }

    /// Moves time to `deadline` if it is not there yet, then yields; throws `CancellationError`
    /// when the task is cancelled.
    public func sleep(until deadline: Instant, tolerance: Swift.Duration? = nil) async throws {
        try Task.checkCancellation()
        current.withLock { $0 = max($0, deadline) }
        await Task.yield()
        try Task.checkCancellation()
    }

    /// Moves time forward by `duration`: time spent by a slow consumer, or a pause.
    public func advance(by duration: Swift.Duration) {
        current.withLock { $0 = $0.advanced(by: duration) }
    }
}
