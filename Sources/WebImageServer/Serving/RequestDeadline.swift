import Locking

/// Runs a request's work against a deadline (imgproxy's `IMGPROXY_TIMEOUT`) and its client: the
/// outcome is the work's value, or that the deadline passed or the client went away first, at
/// which point the work is cancelled and not waited for.
///
/// The work runs in a task of its own rather than a child, so that an answer past the deadline
/// does not wait for work that notices its cancellation late (a transform under way); work
/// shared with other requests (``InFlightWork``) stops only when none of them waits any more.
enum RequestDeadline {
    /// How a request's work ended.
    enum Outcome<T: Sendable>: Sendable {
        /// The work ended in time with this value.
        case answered(T)
        /// The deadline passed first.
        case timedOut
        /// The client's connection closed first (or the caller was cancelled).
        case abandoned
    }

    /// What `work` ends with within `limit`, unless `departure` says the client left first.
    static func run<T: Sendable>(within limit: Duration, departure: DepartureSignal?,
                                 _ work: @escaping @Sendable () async -> T) async -> Outcome<T> {
        let worker = Task { await work() }
        let outcome = FirstAnswer<Outcome<T>>(onEarlyAnswer: { worker.cancel() })
        let registration = departure?.whenDeparted { outcome.give(.abandoned, cancellingWork: true) }
        defer { departure?.forget(registration) }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                outcome.wait(continuation)
                let timer = Task {
                    do { try await Task.sleep(for: limit) } catch { return }
                    outcome.give(.timedOut, cancellingWork: true)
                }
                Task {
                    let value = await worker.value
                    outcome.give(.answered(value), cancellingWork: false)
                    timer.cancel()
                }
            }
        } onCancel: {
            outcome.give(.abandoned, cancellingWork: true)
        }
    }
}

/// A continuation resumed by whichever of several racers answers first, whether it answers
/// before the continuation is there or after. A first answer that cancels the work calls
/// `onEarlyAnswer`; the closure and the continuation are let go once anything answered.
private final class FirstAnswer<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, Never>?
        var answer: T?
        var onEarlyAnswer: (@Sendable () -> Void)?
    }

    private let state: Mutex<State>

    /// An answer to come; `onEarlyAnswer` runs when an answer that cancels the work comes first.
    init(onEarlyAnswer: @escaping @Sendable () -> Void) {
        state = Mutex(State(onEarlyAnswer: onEarlyAnswer))
    }

    /// Keeps `continuation` until an answer comes, or resumes it at once with one already given.
    func wait(_ continuation: CheckedContinuation<T, Never>) {
        let answered = state.withLock { state -> T? in
            guard let answer = state.answer else {
                state.continuation = continuation
                return nil
            }
            return answer
        }
        if let answered { continuation.resume(returning: answered) }
    }

    /// Gives `value` as the answer unless one was given before; `cancellingWork` when it is
    /// not the work's own answer (a timeout, a departure).
    func give(_ value: T, cancellingWork: Bool) {
        let (continuation, early) = state.withLock { state -> (CheckedContinuation<T, Never>?, (@Sendable () -> Void)?) in
            guard state.answer == nil else { return (nil, nil) }
            state.answer = value
            defer { (state.continuation, state.onEarlyAnswer) = (nil, nil) }
            return (state.continuation, state.onEarlyAnswer)
        }
        if cancellingWork { early?() }
        continuation?.resume(returning: value)
    }
}
