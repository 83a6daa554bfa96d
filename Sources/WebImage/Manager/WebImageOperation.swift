import Locking

/// Something running that can be cancelled (SDWebImage's `SDWebImageOperation`, and its
/// `SDWebImageCombinedOperation` and `SDWebImagePrefetchToken`): a callback-style load, a
/// target's load, or a prefetch. After ``cancel()`` a load's completion runs once with
/// ``WebImageError/cancelled``, never with an image; a prefetch reports nothing more.
public final class WebImageOperation: Sendable {
    private let cancelled = Atomic<Bool>(false)
    private let task = Mutex<Task<Void, Never>?>(nil)
    /// Run once, on the cancelling thread, when the operation is cancelled.
    private let onCancel = Mutex<(@Sendable () -> Void)?>(nil)
    /// Whether the work was done when the operation was made: cancelling it changes nothing.
    private let isFinished: Bool

    init() { isFinished = false }

    private init(finished: Bool) { isFinished = finished }

    /// The operation of work done before it could be cancelled (a memory hit, an invalid URL):
    /// one shared object, on which ``cancel()`` does nothing.
    static let finished = WebImageOperation(finished: true)

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Cancels the work: the cache query, the download, the prefetch's remaining loads. Work
    /// that had finished when its operation was returned (a memory hit) is not cancelled.
    public func cancel() {
        guard !isFinished else { return }
        cancelled.store(true, ordering: .releasing)
        task.withLock { $0 }?.cancel()
        onCancel.withLock { body in
            defer { body = nil }
            return body
        }?()
    }

    /// Runs `body` on the thread that cancels the operation, as it is cancelled (at once when
    /// it already is): a target's load shows its delayed placeholder there and then.
    func whenCancelled(_ body: @escaping @Sendable () -> Void) {
        guard !isFinished else { return }
        onCancel.withLock { $0 = body }
        if isCancelled, let body = onCancel.withLock({ body in
            defer { body = nil }
            return body
        }) { body() }
    }

    func run(_ body: @escaping @Sendable () async -> Void) {
        let started = Task { await body() }
        task.withLock { $0 = started }
        if isCancelled { started.cancel() }
    }
}
