import Locking

/// One piece of work that several callers wait for: it runs once, tells each caller the events
/// that happen from the moment the caller joined, and hands every caller the outcome. A caller
/// whose task is cancelled leaves at once with the failure given for it; the work itself is
/// cancelled only when its last caller has left. ``InFlightWork`` finds the one for a key.
final class SharedWork<Value: Sendable, Failure: Error, Event>: Sendable {
    /// What a caller is told while the work runs.
    typealias EventHandler = @Sendable (Event) -> Void
    private typealias Outcome = Result<Value, Failure>
    private typealias Waiter = CheckedContinuation<Outcome, Never>

    private struct Caller {
        var waiter: Waiter?
        let events: EventHandler?
    }

    private struct State {
        var callers: [Int: Caller] = [:]
        var nextID = 0
        /// Callers that left before they started waiting.
        var leftEarly: Set<Int> = []
        var outcome: Outcome?
        /// Finished, or abandoned by its last caller: nobody may join any more.
        var isOver = false
        var task: Task<Void, Never>?
    }

    private let state: Mutex<State>
    /// What a caller that leaves (or is left behind by ``cancel()``) receives.
    private let cancelled: Failure

    /// The ticket of the caller the work is made for.
    static var firstTicket: Int { 1 }

    /// Work for a first caller, who receives `events` and waits with ``firstTicket``; a caller
    /// that leaves receives `cancelled`.
    init(firstCaller events: EventHandler?, cancelled: Failure) {
        var state = State()
        state.callers[Self.firstTicket] = Caller(waiter: nil, events: events)
        state.nextID = Self.firstTicket
        self.state = Mutex(state)
        self.cancelled = cancelled
    }

    /// Adds a caller that receives `events` from now on; returns its ticket, or nil when the
    /// work is over and new work must start.
    func join(events: EventHandler?) -> Int? {
        state.withLock { state in
            guard !state.isOver else { return nil }
            state.nextID += 1
            state.callers[state.nextID] = Caller(waiter: nil, events: events)
            return state.nextID
        }
    }

    /// Starts `work` (preferring `executor`, when given), reporting its events to the callers; `finished` runs once the work is over
    /// and before any caller receives its outcome (so a caller that has its value never finds
    /// the work still listed as running), or after the last caller left and the work stopped.
    func start(_ work: @escaping @Sendable (@escaping EventHandler) async throws(Failure) -> Value,
               on executor: (any TaskExecutor)?, finished: @escaping @Sendable () -> Void) {
        let task = Task(executorPreference: executor) {
            let outcome: Outcome
            do throws(Failure) {
                outcome = .success(try await work { [weak self] event in self?.broadcast(event) })
            } catch {
                outcome = .failure(error)
            }
            self.finish(outcome, finished: finished)
        }
        // Over before it started: its only caller has already left.
        let abandoned = state.withLock { state in
            state.task = task
            return state.isOver
        }
        if abandoned { task.cancel() }
    }

    /// The value for the caller with `ticket`; the cancellation failure as soon as the calling
    /// task is cancelled.
    func value(for ticket: Int) async throws(Failure) -> Value {
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: Waiter) in
                let now: Outcome? = state.withLock { state in
                    if state.leftEarly.remove(ticket) != nil { return .failure(cancelled) }
                    if let outcome = state.outcome { return outcome }
                    state.callers[ticket]?.waiter = waiter
                    return nil
                }
                if let now { waiter.resume(returning: now) }
            }
        } onCancel: {
            leave(ticket)
        }
        return try outcome.get()
    }

    /// The caller with `ticket` leaves; the last one to leave cancels the work.
    private func leave(_ ticket: Int) {
        let (waiter, task): (Waiter?, Task<Void, Never>?) = state.withLock { state in
            guard let caller = state.callers.removeValue(forKey: ticket) else { return (nil, nil) }
            if caller.waiter == nil { state.leftEarly.insert(ticket) }
            guard state.callers.isEmpty, !state.isOver else { return (caller.waiter, nil) }
            state.isOver = true
            return (caller.waiter, state.task)
        }
        waiter?.resume(returning: .failure(cancelled))
        task?.cancel()
    }

    /// Every caller leaves with the cancellation failure and the work is cancelled.
    func cancel() {
        let (waiters, task): ([Waiter], Task<Void, Never>?) = state.withLock { state in
            guard !state.isOver else { return ([], nil) }
            state.isOver = true
            let waiters = state.callers.values.compactMap(\.waiter)
            state.leftEarly.formUnion(state.callers.filter { $0.value.waiter == nil }.keys)
            state.callers.removeAll()
            return (waiters, state.task)
        }
        for waiter in waiters { waiter.resume(returning: .failure(cancelled)) }
        task?.cancel()
    }

    private func broadcast(_ event: Event) {
        let handlers = state.withLock { $0.callers.values.compactMap(\.events) }
        for handler in handlers { handler(event) }
    }

    private func finish(_ outcome: Outcome, finished: @Sendable () -> Void) {
        let waiters = state.withLock { state in
            state.isOver = true
            state.outcome = outcome
            defer { state.callers.removeAll() }
            return state.callers.values.compactMap(\.waiter)
        }
        finished()
        for waiter in waiters { waiter.resume(returning: outcome) }
    }
}
