/// Which queued download of one priority starts first (SDWebImage's `SDWebImageDownloaderExecutionOrder`).
public enum DownloadExecutionOrder: Sendable, Hashable {
    /// First in, first out: the oldest queued request starts first. The default.
    case fifo
    /// Last in, first out: the newest queued request starts first (what a scrolling list wants).
    case lifo
}
