import Locking

/// Tells the requests of one connection that its client has gone, each through a callback it
/// registers for as long as it runs and then forgets, so that a long keep-alive connection keeps
/// nothing of the requests it has answered.
final class DepartureSignal: Sendable {
    private struct State {
        var departed = false
        var nextID: UInt64 = 0
        var callbacks: [UInt64: @Sendable () -> Void] = [:]
    }

    private let state = Mutex(State())

    /// Calls `callback` once the client has gone, at once if it has gone already (then nil is
    /// returned); otherwise returns the registration to ``forget(_:)`` when no longer needed.
    func whenDeparted(_ callback: @escaping @Sendable () -> Void) -> UInt64? {
        let id: UInt64? = state.withLock { state in
            guard !state.departed else { return nil }
            state.nextID += 1
            state.callbacks[state.nextID] = callback
            return state.nextID
        }
        if id == nil { callback() }
        return id
    }

    /// Drops the callback registered as `id`.
    func forget(_ id: UInt64?) {
        guard let id else { return }
        _ = state.withLock { $0.callbacks.removeValue(forKey: id) }
    }

    /// Records that the client has gone and calls every callback registered.
    func depart() {
        let callbacks = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.departed else { return [] }
            state.departed = true
            defer { state.callbacks = [:] }
            return Array(state.callbacks.values)
        }
        for callback in callbacks { callback() }
    }
}
