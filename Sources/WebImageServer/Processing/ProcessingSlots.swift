import Locking
import Metrics

/// Bounds the image work done at once (imgproxy's workers) and the requests waiting for it (its
/// queue): a request finding every slot busy waits its turn, in order, while the queue has room,
/// and is refused with ``ProcessingError/busy`` (429) otherwise. A waiting request that is
/// cancelled (its deadline passed, its client left) leaves the queue at once.
final class ProcessingSlots: Sendable {
    /// What a request asking for a slot is told.
    private enum Admission {
        case admitted, busy, cancelled
    }

    private struct State {
        var running = 0
        var waiting: [(id: UInt64, entry: CheckedContinuation<Admission, Never>)] = []
        var nextID: UInt64 = 0
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
    /// queue is full, and ``ProcessingError/cancelled`` when the task is cancelled while waiting.
    func run<T>(_ body: () async throws(ProcessingError) -> T) async throws(ProcessingError) -> T {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        let admission = await withTaskCancellationHandler {
            await withCheckedContinuation { (entry: CheckedContinuation<Admission, Never>) in
                let decision: Admission? = state.withLock { state in
                    if Task.isCancelled { return .cancelled }
                    if state.running < concurrency {
                        state.running += 1
                        return .admitted
                    }
                    guard state.waiting.count < maxQueue else { return .busy }
                    state.waiting.append((id, entry))
                    // Under the lock, so that the meter never shows an older length last.
                    queueLength?.set(state.waiting.count)
                    return nil
                }
                if let decision { entry.resume(returning: decision) }
            }
        } onCancel: {
            leaveQueue(id)
        }
        switch admission {
        case .busy: throw .busy
        case .cancelled: throw .cancelled
        case .admitted: break
        }
        defer { release() }
        return try await body()
    }

    /// Takes the request `id` out of the queue, if it still waits there, and tells it it was cancelled.
    private func leaveQueue(_ id: UInt64) {
        let entry: CheckedContinuation<Admission, Never>? = state.withLock { state in
            guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return nil }
            let entry = state.waiting.remove(at: index).entry
            queueLength?.set(state.waiting.count)
            return entry
        }
        entry?.resume(returning: .cancelled)
    }

    /// Hands the slot to the longest-waiting request, or frees it.
    private func release() {
        let next: CheckedContinuation<Admission, Never>? = state.withLock { state in
            guard !state.waiting.isEmpty else {
                state.running -= 1
                return nil
            }
            let next = state.waiting.removeFirst().entry
            queueLength?.set(state.waiting.count)
            return next
        }
        next?.resume(returning: .admitted)
    }
}
