import Foundation
import Locking

/// The process's stream of ``DownloadNotification``s: every ``HTTPImageDownloader`` posts
/// to ``shared``, and each call of ``notifications()`` is a listener of its own. Free when
/// nobody listens: a downloader asks ``hasListeners`` (one atomic load) before it makes a
/// notification at all. A listener that falls behind loses its oldest notifications past 1,000
/// rather than ever holding a download up.
public final class DownloadNotifications: Sendable {
    /// The one hub every downloader posts to.
    public static let shared = DownloadNotifications()

    private let listeners = Mutex<(next: UInt64, continuations: [UInt64: AsyncStream<DownloadNotification>.Continuation])>((0, [:]))
    private let count = Atomic<Int>(0)

    private init() {}

    /// Whether anybody listens now.
    public var hasListeners: Bool { count.load(ordering: .relaxed) > 0 }

    /// A new listener's stream, from now on, until the stream is dropped or its task cancelled.
    public func notifications() -> AsyncStream<DownloadNotification> {
        let (stream, continuation) = AsyncStream.makeStream(of: DownloadNotification.self, bufferingPolicy: .bufferingNewest(1000))
        let id = listeners.withLock { state in
            defer { state.next += 1 }
            state.continuations[state.next] = continuation
            return state.next
        }
        count.wrappingAdd(1, ordering: .relaxed)
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            if listeners.withLock({ $0.continuations.removeValue(forKey: id) }) != nil { count.wrappingSubtract(1, ordering: .relaxed) }
        }
        return stream
    }

    /// Sends what `make` makes to every listener; `make` is not called when there is none.
    func post(_ make: () -> DownloadNotification) {
        guard hasListeners else { return }
        let notification = make()
        for continuation in listeners.withLock({ Array($0.continuations.values) }) { continuation.yield(notification) }
    }
}
