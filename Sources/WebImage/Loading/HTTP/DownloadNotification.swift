import Foundation

/// One step of a download as every ``HTTPImageDownloader`` of the process reports it to
/// ``DownloadNotifications`` (SDWebImage's `SDWebImageDownloadStartNotification`,
/// `…ReceiveResponseNotification`, `…StopNotification` and `…FinishNotification`), for an
/// app's metrics: which URL, what the origin answered, how many bytes, how long.
public struct DownloadNotification: Sendable {
    /// Which step.
    public enum Kind: Sendable, Hashable {
        /// The request was sent (again, for a retry).
        case started
        /// The response head arrived, with ``DownloadNotification/status``.
        case receivedResponse
        /// The body arrived whole: ``DownloadNotification/bytes`` of it.
        case finished
        /// The download ended without an image's bytes, with ``DownloadNotification/error``.
        case failed
    }

    /// Which step this is.
    public let kind: Kind
    /// The URL asked for (a redirect's target is not reported apart).
    public let url: URL
    /// The downloader's number of the download, the same for every step of it.
    public let operation: UInt64
    /// The response's status, once there is one.
    public let status: Int?
    /// The body's bytes, when finished.
    public let bytes: Int?
    /// The time since the download was first sent.
    public let elapsed: Duration
    /// Why it failed, when failed.
    public let error: WebImageError?
}
