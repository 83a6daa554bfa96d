import Locking
import Metrics

/// Bounds the image work done at once (imgproxy's workers) and the requests waiting for it (its
/// queue): a request finding every slot busy waits its turn, in order, while the queue has room,
/// and is refused with ``ProcessingError/busy`` (429) otherwise.
final class ProcessingSlots: Sendable {
    private struct State {
        var running = 0
        var waiting: [CheckedContinuation<Bool, Never>] = []
    }

    /// How many requests may be processed at once.
    let concurrency: Int
    /// How many requests may wait for a slot.
    let maxQueue: Int
    /// Told the queue's length whenever it changes.
    private let queueLength: Meter?
    private let state = Mutex(State())

    /// Slots for `concurrency` requests at once (at least one) and a queue of `maxQueue` more,
    /// whose length `queueLength` follows.
    init(concurrency: Int, maxQueue: Int, queueLength: Meter? = nil) {
        self.concurrency = max(1, concurrency)
        self.maxQueue = max(0, maxQueue)
        self.queueLength = queueLength
    }

    /// How many requests wait for a slot now.
    var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Runs `body` in a slot once one is free; throws ``ProcessingError/busy`` at once when the
    /// queue is full.
    func run<T>(_ body: () async throws(ProcessingError) -> T) async throws(ProcessingError) -> T {
        let admitted = await withCheckedContinuation { (entry: CheckedContinuation<Bool, Never>) in
            let decision: Bool? = state.withLock { state in
                if state.running < concurrency {
                    state.running += 1
                    return true
                }
                guard state.waiting.count < maxQueue else { return false }
                state.waiting.append(entry)
                // Under the lock, so that the meter never shows an older length last.
                queueLength?.set(state.waiting.count)
                return nil
            }
            if let decision { entry.resume(returning: decision) }
        }
        guard admitted else { throw .busy }
        defer { release() }
        return try await body()
    }

    /// Hands the slot to the longest-waiting request, or frees it.
    private func release() {
        let next: CheckedContinuation<Bool, Never>? = state.withLock { state in
            guard !state.waiting.isEmpty else {
                state.running -= 1
                return nil
            }
            let next = state.waiting.removeFirst()
            queueLength?.set(state.waiting.count)
            return next
        }
        next?.resume(returning: true)
    }
}
