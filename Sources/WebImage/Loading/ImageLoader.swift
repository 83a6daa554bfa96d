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

    /// Loads the bytes at `url` without decoding them (through the decryptor, when
    /// `options` has one), for a caller that decodes them later: ``ImageManager/data(for:options:context:events:)``
    /// lets a server download outside the slots its decoding waits for. Throws as
    /// ``requestImage(for:options:events:)`` does, except that no bytes are refused for not
    /// being an image.
    func requestData(
        for url: URL, options: ImageLoaderOptions, events: ImageLoadingEventHandler?
    ) async throws -> ImageDataLoadResult

    /// Whether `error`, from loading `url`, means the URL should not be tried again.
    func shouldBlockFailedURL(_ url: URL, error: any Error) -> Bool
}

extension ImageLoader {
    /// The bytes of ``requestImage(for:options:events:)``'s result: a loader that cannot fetch
    /// without decoding still answers, at the cost of a decode; WebImage's own loaders skip it.
    public func requestData(
        for url: URL, options: ImageLoaderOptions, events: ImageLoadingEventHandler?
    ) async throws -> ImageDataLoadResult {
        let loaded = try await requestImage(for: url, options: options, events: events)
        return ImageDataLoadResult(data: loaded.data, response: loaded.response)
    }

    /// Blocks exactly the errors that are ``WebImageError/isPermanent``.
    public func shouldBlockFailedURL(_ url: URL, error: any Error) -> Bool {
        (error as? WebImageError)?.isPermanent ?? false
    }
}
