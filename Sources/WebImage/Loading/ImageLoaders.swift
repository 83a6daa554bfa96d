import Foundation

/// A registry of loaders (SDWebImage's `SDImageLoadersManager`): a request goes to the first
/// loader that can request the URL.
///
/// Order: the loader added last is asked first, as in SDWebImage and as in ``ImageCoders`` and
/// ``ImageCachesManager``, so a loader of yours can take over a scheme. Thread-safe.
public final class ImageLoaders: ImageLoader {
    private let loaders: Registry<any ImageLoader>

    /// A registry holding `loaders`, as if added in order: the last one is asked first.
    public init(_ loaders: [any ImageLoader]) {
        self.loaders = Registry(loaders)
    }

    /// The registry the manager uses by default: HTTP(S) through ``HTTPImageDownloader/shared``,
    /// `file:` and `data:` URLs.
    public static let shared = ImageLoaders.standard(downloader: .shared)

    /// A registry for every URL WebImage loads: HTTP(S) through `downloader`, `file:` and `data:`.
    public static func standard(downloader: HTTPImageDownloader) -> ImageLoaders {
        ImageLoaders([downloader, FileImageLoader(), DataURLImageLoader()])
    }

    /// Adds `loader`; it is asked before every loader added earlier.
    public func add(_ loader: any ImageLoader) {
        loaders.add(loader)
    }

    /// Removes every loader of type `type`.
    public func remove<L: ImageLoader>(_ type: L.Type) {
        loaders.remove(type)
    }

    /// The loaders in the order they are asked: the most recently added first.
    public var all: [any ImageLoader] {
        loaders.all
    }

    /// The loader that requests `url`, if any.
    public func loader(for url: URL) -> (any ImageLoader)? {
        all.first { $0.canRequest(url) }
    }

    public func canRequest(_ url: URL) -> Bool {
        loader(for: url) != nil
    }

    /// Loads with ``loader(for:)``; with none, throws ``WebImageError/invalidURL(_:)`` saying
    /// why (``whyUnhandled(_:)``).
    public func requestImage(
        for url: URL, options: ImageLoaderOptions, events: ImageLoadingEventHandler?
    ) async throws -> ImageLoadResult {
        try await requiredLoader(for: url).requestImage(for: url, options: options, events: events)
    }

    /// Loads bytes with ``loader(for:)``; with none, throws as ``requestImage(for:options:events:)`` does.
    public func requestData(
        for url: URL, options: ImageLoaderOptions, events: ImageLoadingEventHandler?
    ) async throws -> ImageDataLoadResult {
        try await requiredLoader(for: url).requestData(for: url, options: options, events: events)
    }

    /// ``loader(for:)``; with none, ``WebImageError/invalidURL(_:)`` saying why.
    private func requiredLoader(for url: URL) throws(WebImageError) -> any ImageLoader {
        guard let loader = loader(for: url) else {
            throw .invalidURL(whyUnhandled(url) ?? "no loader handles \(url.absoluteString)")
        }
        return loader
    }

    /// Why no loader takes `url`, as a sentence ("http:// has no host", "no loader handles
    /// ftp: URLs"), or nil when one does: lets a tool refuse a bad URL before loading anything.
    public func whyUnhandled(_ url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), !scheme.isEmpty else {
            return loader(for: url) == nil ? "\(url.absoluteString) has no scheme" : nil
        }
        if scheme == "http" || scheme == "https", let problem = HTTPRequestURL.problem(with: url) {
            return "\(url.absoluteString) \(problem)"
        }
        return loader(for: url) == nil ? "no loader handles \(scheme): URLs" : nil
    }

    /// Asks the loader that handles `url`; with none, blocks only permanent ``WebImageError``s.
    public func shouldBlockFailedURL(_ url: URL, error: any Error) -> Bool {
        if let loader = loader(for: url) { return loader.shouldBlockFailedURL(url, error: error) }
        return (error as? WebImageError)?.isPermanent ?? false
    }
}
