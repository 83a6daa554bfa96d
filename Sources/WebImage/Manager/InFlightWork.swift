import Locking

/// The work under way, by what it produces, so that identical concurrent requests do it once:
/// every caller that asks for a key while its work runs joins it and shares its outcome
/// (Nuke's task coalescing, in WebImage's words). The manager's loads share their cache query,
/// download, decode, transform and store through one; `webimage serve` shares the making of an
/// encoded result through another. Work that cannot be compared with other work (a nil key)
/// runs alone, but is under way here all the same.
///
/// Each caller may leave on its own (its task cancelled): it receives the cancellation failure
/// at once, and the work is cancelled only when its last caller has left.
public final class InFlightWork<Key: Hashable & Sendable, Value: Sendable, Failure: Error, Event>: Sendable {
    /// What a caller is told while the work runs (the manager's ``ImageLoadingEvent``s).
    public typealias EventHandler = @Sendable (Event) -> Void

    /// A piece of work's place in the map: its key, or a number of its own.
    private enum Slot: Hashable {
        case shared(Key)
        case alone(Int)
    }

    private struct State {
        var running: [Slot: SharedWork<Value, Failure, Event>] = [:]
        var nextAlone = 0
    }

    private let state = Mutex(State())
    /// What a caller that leaves receives.
    private let cancelled: Failure
    /// The executor the work's tasks prefer (a ``CodecExecutor``), or nil for Swift's default.
    private let executor: (any TaskExecutor)?

    /// An empty map whose callers receive `cancelled` when they leave before the work ends, and
    /// whose work runs on `executor` when one is given.
    public init(cancelled: Failure, executor: (any TaskExecutor)? = nil) {
        self.cancelled = cancelled
        self.executor = executor
    }

    /// The value of `work` for `key`, and whether this caller joined work already under way
    /// (`joined`) rather than started it. `work` is started by the first caller and shared
    /// with every caller that asks with the same key before it ends (nil: shared with nobody);
    /// `events` receives what `work` reports from the moment this caller joined.
    public func value(
        for key: Key?, events: EventHandler? = nil,
        work: @escaping @Sendable (@escaping EventHandler) async throws(Failure) -> Value
    ) async throws(Failure) -> (value: Value, joined: Bool) {
        let (slot, shared, ticket, isNew) = state.withLock { state in
            let slot: Slot
            if let key {
                slot = .shared(key)
                if let running = state.running[slot], let ticket = running.join(events: events) {
                    return (slot, running, ticket, false)
                }
            } else {
                state.nextAlone += 1
                slot = .alone(state.nextAlone)
            }
            let shared = SharedWork<Value, Failure, Event>(firstCaller: events, cancelled: cancelled)
            state.running[slot] = shared
            return (slot, shared, SharedWork<Value, Failure, Event>.firstTicket, true)
        }
        if isNew {
            shared.start(work, on: executor) { [weak self] in
                self?.state.withLock { state in
                    if state.running[slot] === shared { state.running[slot] = nil }
                }
            }
        }
        return (try await shared.value(for: ticket), !isNew)
    }

    /// Whether any work is under way.
    public var isRunning: Bool { state.withLock { !$0.running.isEmpty } }

    /// Cancels all work under way: each caller receives the cancellation failure at once.
    public func cancelAll() {
        let running = state.withLock { Array($0.running.values) }
        for work in running { work.cancel() }
    }
}
