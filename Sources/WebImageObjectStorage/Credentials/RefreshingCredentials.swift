import Foundation
import Locking

/// The credentials of a `source`, kept until five minutes before they expire (AWS's SDKs'
/// margin), then asked for again by the first
/// request that needs them while the others wait for the same answer. When asking fails while
/// the kept credentials still work, those are used and the source is asked again next time.
public final class RefreshingCredentials: ObjectStorageCredentialSource {
    /// Where the credentials come from.
    public let source: any ObjectStorageCredentialSource
    private let now: @Sendable () -> Date
    private let state = Mutex<(kept: ObjectStorageCredentials?, asking: Task<ObjectStorageCredentials, any Error>?)>((nil, nil))
    /// The most a refresh comes before the expiry.
    static let margin: TimeInterval = 5 * 60

    /// Credentials of `source`, judged fresh against `now` (the clock by default).
    public init(_ source: any ObjectStorageCredentialSource, now: @escaping @Sendable () -> Date = Date.init) {
        self.source = source
        self.now = now
    }

    /// What a caller does: use credentials kept, or wait for the source's answer (with the
    /// kept ones, stale, to fall back on).
    private enum Step {
        case use(ObjectStorageCredentials)
        case wait(Task<ObjectStorageCredentials, any Error>, kept: ObjectStorageCredentials?)
    }

    /// The kept credentials while fresh, else the source's.
    public func credentials() async throws(ObjectStorageError) -> ObjectStorageCredentials {
        let date = now()
        let step = state.withLock { state -> Step in
            if let kept = state.kept, Self.isFresh(kept, at: date) { return .use(kept) }
            if let asking = state.asking { return .wait(asking, kept: state.kept) }
            let source = source
            let asking = Task<ObjectStorageCredentials, any Error> { try await source.credentials() }
            state.asking = asking
            return .wait(asking, kept: state.kept)
        }
        switch step {
        case .use(let kept):
            return kept
        case .wait(let asking, let kept):
            do {
                let fresh = try await asking.value
                state.withLock { state in
                    state.kept = fresh
                    state.asking = nil
                }
                return fresh
            } catch {
                state.withLock { $0.asking = nil }
                if let kept, kept.expiration.map({ $0 > date }) ?? true { return kept }
                throw error as? ObjectStorageError ?? .credentialsUnavailable(String(describing: error))
            }
        }
    }

    /// Whether `credentials` need no refresh at `date`.
    static func isFresh(_ credentials: ObjectStorageCredentials, at date: Date) -> Bool {
        guard let expiration = credentials.expiration else { return true }
        return expiration.timeIntervalSince(date) > margin
    }
}
