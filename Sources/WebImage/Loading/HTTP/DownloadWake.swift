/// What wakes a caller waiting on a download.
enum DownloadWake: Sendable {
    /// The caller's result.
    case finished(Result<DownloadResult, WebImageError>)
    /// The outcome of the caller's download, for the caller to decode and hand out to every
    /// caller of it (``HTTPImageDownloader/deliver(_:)``): the caller's own task does the work a
    /// task of the downloader's would.
    case deliver(DownloadDelivery)
}
