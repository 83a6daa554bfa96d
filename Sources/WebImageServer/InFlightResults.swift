import Locking

/// The results being made, by canonical key, so that identical requests arriving together make
/// their result once: the first starts the work, the others wait for it and share its outcome.
/// The manager already coalesces the source's download and decode; this coalesces the
/// transform and encode, and takes one processing slot instead of one per request.
final class InFlightResults: Sendable {
    /// The outcome of making a result.
    typealias Outcome = Result<ProcessedImage, ProcessingError>

    private let making = Mutex<[String: Task<Outcome, Never>]>([:])

    /// The outcome for `key`, and whether it was shared from a making already under way
    /// (`joined`) rather than started by `make` now. The work is not cancelled with a caller:
    /// others may be waiting, and its result is worth caching.
    func outcome(for key: String, make: @escaping @Sendable () async -> Outcome) async -> (Outcome, joined: Bool) {
        let (task, joined) = making.withLock { making -> (Task<Outcome, Never>, Bool) in
            if let running = making[key] { return (running, true) }
            let task = Task { [self] in
                let outcome = await make()
                // Once the result is cached a later request finds it there; until then it joins.
                _ = self.making.withLock { $0.removeValue(forKey: key) }
                return outcome
            }
            making[key] = task
            return (task, false)
        }
        return (await task.value, joined)
    }
}
