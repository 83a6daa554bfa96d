import Locking

/// Collects what callbacks deliver, from any thread, and lets a test wait for them.
final class Recorder<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])

    func append(_ value: Value) {
        values.withLock { $0.append(value) }
    }

    var all: [Value] { values.withLock { $0 } }

    var count: Int { values.withLock { $0.count } }

    /// Waits until at least `count` values arrived, for at most `timeout`; returns whether they did.
    func wait(for count: Int, timeout: Duration = .seconds(30)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while self.count < count, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        return self.count >= count
    }
}
