import Foundation

/// Receives what a load reports before it completes: progress and partial images.
public typealias ImageLoadingEventHandler = @Sendable (ImageLoadingEvent) -> Void

/// Fetches the bytes of a URL and decodes them (SDWebImage's `SDImageLoader`).
///
/// The manager asks its loader (usually an ``ImageLoaders`` registry) whether it can request a
/// URL, requests it, and on failure asks whether the URL should go on the failed-URL list.
public protocol ImageLoader: Sendable {
    /// Whether this loader handles `url` (by its scheme, usually).
    func canRequest(_ url: URL) -> Bool

    /// Loads and decodes the image at `url`. Throws ``WebImageError`` (cancellation of the
    /// calling task gives ``WebImageError/cancelled``). `events` receives progress and, with
    /// ``ImageLoaderOptions/progressive``, partial images.
    func requestImage(
        for url: URL, options: ImageLoaderOptions, events: ImageLoadingEventHandler?
    ) async throws -> ImageLoadResult

    /// Whether `error`, from loading `url`, means the URL should not be tried again.
    func shouldBlockFailedURL(_ url: URL, error: any Error) -> Bool
}

extension ImageLoader {
    /// Blocks exactly the errors that are ``WebImageError/isPermanent``.
    public func shouldBlockFailedURL(_ url: URL, error: any Error) -> Bool {
        (error as? WebImageError)?.isPermanent ?? false
    }
}
