import Locking
import Logging

/// Whether the store is answering, as the tier last saw it, and so whether to ask it now.
///
/// After a failure the store is left alone for the retry interval: requests then miss at once
/// instead of each waiting out a deadline (AsyncHTTPClient keeps trying to connect to a store
/// that is down until the request's deadline). Past the interval one request at a time asks
/// again; its success ends the outage. A run of failures logs one warning, its end one notice.
final class ObjectStorageHealth: Sendable {
    private struct State {
        var lastFailure: ContinuousClock.Instant?
        var probing = false
    }

    /// How long the store is left alone after a failure.
    let retryInterval: Duration
    private let state = Mutex(State())

    /// A store thought to answer, left alone for `retryInterval` after each failure.
    init(retryInterval: Duration) {
        self.retryInterval = retryInterval
    }

    /// Whether a request may go to the store now: always while it answers; during an outage,
    /// one at a time once the interval since the last failure has passed.
    func permitsRequest() -> Bool {
        state.withLock { state in
            guard let lastFailure = state.lastFailure else { return true }
            guard !state.probing, lastFailure.duration(to: .now) >= retryInterval else { return false }
            state.probing = true
            return true
        }
    }

    /// Notes a failure; logs a warning when it starts an outage.
    func failed(_ error: any Error, operation: String, logger: Logger) {
        let starts = state.withLock { state in
            defer {
                state.lastFailure = .now
                state.probing = false
            }
            return state.lastFailure == nil
        }
        if starts {
            logger.warning("the object storage tier is failing; requests go on from the other caches and the origin",
                           metadata: ["operation": "\(operation)", "error": "\(error)"])
        }
    }

    /// Notes a success; logs a notice when it ends an outage.
    func succeeded(logger: Logger) {
        let ends = state.withLock { state in
            defer { state = State() }
            return state.lastFailure != nil
        }
        if ends { logger.notice("the object storage tier answers again") }
    }
}
