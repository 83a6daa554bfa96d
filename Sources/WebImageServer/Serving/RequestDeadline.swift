import Locking
import NIOCore

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

    /// What `work` ends with within `limit`, unless `connectionClosed` completes first.
    static func run<T: Sendable>(within limit: Duration, connectionClosed: EventLoopFuture<Void>,
                                 _ work: @escaping @Sendable () async -> T) async -> Outcome<T> {
        let worker = Task { await work() }
        let outcome = FirstAnswer<Outcome<T>>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                outcome.wait(continuation)
                let timer = Task {
                    try? await Task.sleep(for: limit)
                    if outcome.give(.timedOut) { worker.cancel() }
                }
                connectionClosed.whenComplete { _ in
                    if outcome.give(.abandoned) { worker.cancel() }
                }
                Task {
                    let value = await worker.value
                    timer.cancel()
                    outcome.give(.answered(value))
                }
            }
        } onCancel: {
            if outcome.give(.abandoned) { worker.cancel() }
        }
    }
}

/// A continuation resumed by whichever of several racers answers first.
private final class FirstAnswer<T: Sendable>: Sendable {
    private let state = Mutex<(continuation: CheckedContinuation<T, Never>?, answered: Bool)>((nil, false))

    /// Keeps `continuation` until an answer comes.
    func wait(_ continuation: CheckedContinuation<T, Never>) {
        state.withLock { $0.continuation = continuation }
    }

    /// Resumes the continuation with `value` if nobody answered before; says whether this was
    /// the answer.
    @discardableResult
    func give(_ value: T) -> Bool {
        let continuation = state.withLock { state -> CheckedContinuation<T, Never>? in
            guard !state.answered else { return nil }
            state.answered = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(returning: value)
        return continuation != nil
    }
}
