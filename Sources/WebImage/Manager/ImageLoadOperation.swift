import Synchronization

/// A running callback-style load (SDWebImage's `SDWebImageCombinedOperation`): cancel it to
/// stop the cache query and the download. After ``cancel()`` the completion runs once with
/// ``WebImageError/cancelled``, never with an image.
public final class ImageLoadOperation: Sendable {
    private let cancelled = Atomic<Bool>(false)
    private let task = Mutex<Task<Void, Never>?>(nil)

    init() {}

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Cancels the load; its completion reports ``WebImageError/cancelled``.
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
