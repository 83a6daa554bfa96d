import Locking

/// A barrier the test opens: a response whose ``LoopbackHTTPResponse/gate`` is closed holds its
/// head until the test calls ``open()``. "While this download is under way" then lasts exactly
/// as long as the test needs on a machine of any speed, instead of as long as a guessed delay.
public final class LoopbackHTTPGate: Sendable {
    private struct State {
        var isOpen = false
        var waiting: [@Sendable () -> Void] = []
    }

    private let state = Mutex(State())

    /// A closed gate.
    public init() {}

    /// Lets every held response go on, and every later one through at once.
    public func open() {
        let waiting = state.withLock { state in
            state.isOpen = true
            defer { state.waiting.removeAll() }
            return state.waiting
        }
        for resume in waiting { resume() }
    }

    /// Runs `resume` once the gate is open: at once when it is.
    func whenOpen(_ resume: @escaping @Sendable () -> Void) {
        let isOpen = state.withLock { state in
            if !state.isOpen { state.waiting.append(resume) }
            return state.isOpen
        }
        if isOpen { resume() }
    }
}
