import Foundation

/// One caller's handle on a download (SDWebImage's `SDWebImageDownloadToken`).
///
/// ``cancel()`` completes this caller with ``WebImageError/cancelled`` and leaves the other
/// callers of the same URL alone; when the last one cancels, the HTTP request is cancelled too.
/// Cancelling after completion, or twice, does nothing.
public final class DownloadToken: Sendable {
    /// The URL this token waits for.
    public let url: URL
    private let onCancel: @Sendable () -> Void

    init(url: URL, onCancel: @escaping @Sendable () -> Void) {
        self.url = url
        self.onCancel = onCancel
    }

    /// Stops waiting: this caller's completion runs at once with ``WebImageError/cancelled``
    /// (unless it ran already).
    public func cancel() {
        onCancel()
    }
}
