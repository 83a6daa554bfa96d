import Foundation
import Locking

/// The credentials of a `source`, kept until five minutes before they expire (AWS's SDKs'
/// margin). Within the margin the kept ones still serve every request at once while one
/// refresh runs in the background; a failed refresh is tried again 30 seconds later at the
/// soonest, until the kept ones expire. Without credentials (at first, or once they have
/// expired) requests wait for one shared refresh.
public final class RefreshingCredentials: ObjectStorageCredentialSource {
    /// Where the credentials come from.
    public let source: any ObjectStorageCredentialSource
    private let now: @Sendable () -> Date
    private let state = Mutex<State>(State())
    /// How long before the expiry a refresh starts.
    static let margin: TimeInterval = 5 * 60
    /// How long after a failed refresh the next one may start.
    static let retryDelay: TimeInterval = 30

    private struct State {
        /// The last credentials the source gave.
        var kept: ObjectStorageCredentials?
        /// The refresh under way, which stores what it gets.
        var asking: Task<ObjectStorageCredentials, any Error>?
        /// No background refresh starts before this, after one failed.
        var retryAfter: Date?
    }

    /// What a caller does: use credentials that still work, or wait for the refresh.
    private enum Step {
        case use(ObjectStorageCredentials)
        case wait(Task<ObjectStorageCredentials, any Error>)
    }

    /// Credentials of `source`, judged fresh against `now` (the clock by default).
    public init(_ source: any ObjectStorageCredentialSource, now: @escaping @Sendable () -> Date = Date.init) {
        self.source = source
        self.now = now
    }

    /// The kept credentials while they work, else the source's.
    public func credentials() async throws(ObjectStorageError) -> ObjectStorageCredentials {
        let date = now()
        // The refresh task clears itself under the same lock, so it cannot end before it is kept here.
        let step = state.withLock { state -> Step in
            if let kept = state.kept, kept.expiration.map({ $0 > date }) ?? true {
                if !Self.isFresh(kept, at: date), state.asking == nil, state.retryAfter.map({ date >= $0 }) ?? true {
                    state.asking = refresh()
                }
                return .use(kept)
            }
            let asking = state.asking ?? refresh()
            state.asking = asking
            return .wait(asking)
        }
        switch step {
        case .use(let kept):
            return kept
        case .wait(let asking):
            do {
                return try await asking.value
            } catch {
                throw error as? ObjectStorageError ?? .credentialsUnavailable(String(describing: error))
            }
        }
    }

    /// A task asking the source, which keeps what it answers (or notes when to try again) and
    /// clears itself from the state as it ends.
    private func refresh() -> Task<ObjectStorageCredentials, any Error> {
        Task { [self] in
            do {
                let fresh = try await source.credentials()
                state.withLock { state in
                    state.kept = fresh
                    state.asking = nil
                    state.retryAfter = nil
                }
                return fresh
            } catch {
                let failed = now()
                state.withLock { state in
                    state.asking = nil
                    state.retryAfter = failed.addingTimeInterval(Self.retryDelay)
                }
                throw error
            }
        }
    }

    /// Whether `credentials` need no refresh at `date`.
    static func isFresh(_ credentials: ObjectStorageCredentials, at date: Date) -> Bool {
        guard let expiration = credentials.expiration else { return true }
        return expiration.timeIntervalSince(date) > margin
    }
}
