import Locking

/// One load that several callers wait for: it runs once, tells each caller what happens from
/// the moment the caller joined, and hands every caller the result. A caller that is
/// cancelled leaves at once with ``WebImageError/cancelled``; the load itself is cancelled
/// only when its last caller has left.
final class SharedLoad: Sendable {
    private typealias Waiter = CheckedContinuation<Result<ImageResult, WebImageError>, Never>

    private struct Caller {
        var waiter: Waiter?
        let events: ImageLoadingEventHandler?
    }

    private struct State {
        var callers: [Int: Caller] = [:]
        var nextID = 0
        /// Callers that left before they started waiting.
        var leftEarly: Set<Int> = []
        var result: Result<ImageResult, WebImageError>?
        /// Finished, or abandoned by its last caller: nobody may join any more.
        var isOver = false
        var task: Task<Void, Never>?
    }

    private let state: Mutex<State>

    /// The ticket of the caller a load is made for.
    static let firstTicket = 1

    /// A load for a first caller, who receives `events` and waits with ``firstTicket``.
    init(firstCaller events: ImageLoadingEventHandler?) {
        var state = State()
        state.callers[Self.firstTicket] = Caller(waiter: nil, events: events)
        state.nextID = Self.firstTicket
        self.state = Mutex(state)
    }

    /// Adds a caller that receives `events` from now on; returns its ticket, or nil when the
    /// load is over and a new one must start.
    func join(events: ImageLoadingEventHandler?) -> Int? {
        state.withLock { state in
            guard !state.isOver else { return nil }
            state.nextID += 1
            state.callers[state.nextID] = Caller(waiter: nil, events: events)
            return state.nextID
        }
    }

    /// Starts `work`, reporting its events to the callers; `finished` runs after every caller
    /// has its result, or after the last caller left and the work stopped.
    func start(_ work: @escaping @Sendable (@escaping ImageLoadingEventHandler) async throws(WebImageError) -> ImageResult,
               finished: @escaping @Sendable () -> Void) {
        let task = Task {
            let result: Result<ImageResult, WebImageError>
            do throws(WebImageError) {
                result = .success(try await work { [weak self] event in self?.broadcast(event) })
            } catch {
                result = .failure(error)
            }
            finish(result)
            finished()
        }
        // Over before it started: its only caller has already left.
        let abandoned = state.withLock { state in
            state.task = task
            return state.isOver
        }
        if abandoned { task.cancel() }
    }

    /// The result for the caller with `ticket`; ``WebImageError/cancelled`` as soon as the
    /// calling task is cancelled.
    func result(for ticket: Int) async throws(WebImageError) -> ImageResult {
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: Waiter) in
                let now: Result<ImageResult, WebImageError>? = state.withLock { state in
                    if state.leftEarly.remove(ticket) != nil { return .failure(.cancelled) }
                    if let result = state.result { return result }
                    state.callers[ticket]?.waiter = waiter
                    return nil
                }
                if let now { waiter.resume(returning: now) }
            }
        } onCancel: {
            leave(ticket)
        }
        return try result.get()
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
        waiter?.resume(returning: .failure(.cancelled))
        task?.cancel()
    }

    /// Every caller leaves with ``WebImageError/cancelled`` and the work is cancelled.
    func cancel() {
        let (waiters, task): ([Waiter], Task<Void, Never>?) = state.withLock { state in
            guard !state.isOver else { return ([], nil) }
            state.isOver = true
            let waiters = state.callers.values.compactMap(\.waiter)
            state.leftEarly.formUnion(state.callers.filter { $0.value.waiter == nil }.keys)
            state.callers.removeAll()
            return (waiters, state.task)
        }
        for waiter in waiters { waiter.resume(returning: .failure(.cancelled)) }
        task?.cancel()
    }

    private func broadcast(_ event: ImageLoadingEvent) {
        let handlers = state.withLock { $0.callers.values.compactMap(\.events) }
        for handler in handlers { handler(event) }
    }

    private func finish(_ result: Result<ImageResult, WebImageError>) {
        let waiters = state.withLock { state in
            state.isOver = true
            state.result = result
            defer { state.callers.removeAll() }
            return state.callers.values.compactMap(\.waiter)
        }
        for waiter in waiters { waiter.resume(returning: result) }
    }
}
