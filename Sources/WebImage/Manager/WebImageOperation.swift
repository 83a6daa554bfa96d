import Locking

/// Something running that can be cancelled (SDWebImage's `SDWebImageOperation`, and its
/// `SDWebImageCombinedOperation` and `SDWebImagePrefetchToken`): a callback-style load, a
/// target's load, or a prefetch. After ``cancel()`` a load's completion runs once with
/// ``WebImageError/cancelled``, never with an image; a prefetch reports nothing more.
public final class WebImageOperation: Sendable {
    private let cancelled = Atomic<Bool>(false)
    private let task = Mutex<Task<Void, Never>?>(nil)

    init() {}

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Cancels the work: the cache query, the download, the prefetch's remaining loads.
    public func cancel() {
        cancelled.store(true, ordering: .releasing)
        task.withLock { $0 }?.cancel()
    }

    func run(_ body: @escaping @Sendable () async -> Void) {
        let started = Task { await body() }
        task.withLock { $0 = started }
        if isCancelled { started.cancel() }
    }
}
