/// How urgent a download is (SDWebImage's `lowPriority` / `highPriority` options).
///
/// Queued downloads start in priority order; within one priority, in the downloader's
/// ``DownloadExecutionOrder``. Running downloads are not affected.
public enum DownloadPriority: Int, Sendable, Hashable, Comparable, CaseIterable {
    case low
    case normal
    case high

    public static func < (lhs: DownloadPriority, rhs: DownloadPriority) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
