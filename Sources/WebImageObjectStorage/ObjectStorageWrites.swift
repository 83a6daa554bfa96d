import Locking

/// The writes of the object storage tier under way in the background: each a task of its own,
/// all of them together holding at most a given number of bytes.
final class ObjectStorageWrites: Sendable {
    private struct State {
        var bytes = 0
        var next = 0
        var running: [Int: Task<Void, Never>] = [:]
    }

    private let state = Mutex(State())

    /// Starts `work`, which holds `bytes`, unless the writes under way would then hold more than
    /// `limit`; false when it was not started.
    func start(holding bytes: Int, limit: Int, _ work: @escaping @Sendable () async -> Void) -> Bool {
        state.withLock { state in
            guard state.bytes + bytes <= limit else { return false }
            state.bytes += bytes
            let id = state.next
            state.next += 1
            state.running[id] = Task { [self] in
                await work()
                self.state.withLock {
                    $0.bytes -= bytes
                    $0.running[id] = nil
                }
            }
            return true
        }
    }

    /// Returns once every write started before the call has ended.
    func waitUntilIdle() async {
        let running = state.withLock { Array($0.running.values) }
        for task in running { await task.value }
    }
}
