import Locking

/// Lets at most `limit` tasks through at a time, in the order they asked; a task cancelled
/// while it waits stops waiting and throws `CancellationError`.
final class AsyncLimiter: Sendable {
    private struct LimiterWaiter {
        let id: Int
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct LimiterState {
        var available: Int
        var waiters: [LimiterWaiter] = []
        var nextID = 0
    }

    private let state: Mutex<LimiterState>

    init(limit: Int) {
        state = Mutex(LimiterState(available: max(1, limit)))
    }

    /// Runs `body` once a place is free, and frees the place after it.
    func run<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async throws {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Result<Void, any Error>? in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if state.available > 0 && state.waiters.isEmpty {
                        state.available -= 1
                        return .success(())
                    }
                    state.waiters.append(LimiterWaiter(id: id, continuation: continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> LimiterWaiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    private func release() {
        let next = state.withLock { state -> LimiterWaiter? in
            if state.waiters.isEmpty {
                state.available += 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.continuation.resume()
    }
}
