/// The outcome of a download on its way to the callers, and the caller who hands it out.
struct DownloadDelivery: Sendable {
    /// The download that ended.
    let request: DownloadRequest
    /// What it ended with.
    let outcome: HTTPImageDownloader.FetchOutcome
    /// The caller whose task hands the outcome out (and who is no longer among the download's
    /// callers); nil when a task of the downloader's does.
    let deliverer: DownloadCaller?
}
