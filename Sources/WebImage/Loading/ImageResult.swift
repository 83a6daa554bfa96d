import Foundation

/// Where a loaded image came from.
public enum ImageSource: String, Sendable, Hashable {
    /// Downloaded: by the HTTP downloader, or by a custom loader for another scheme.
    case network
    /// Read from a `file:` URL by the file loader: not a download, not a cache hit.
    case file
    /// Decoded from the bytes inside a `data:` URL.
    case data
    /// The memory cache.
    case memory
    /// The disk cache.
    case disk
    /// The cache, confirmed current by the server (`304 Not Modified`) under `refreshCached`.
    case revalidated
}

/// A finished load (SDWebImage's completion arguments as one value).
public struct ImageResult: Sendable {
    /// The image, transformed when a transformer was given.
    public var image: Image
    /// The encoded bytes of ``image``, when they were at hand (downloaded or read from disk);
    /// nil for a transformed download, whose bytes are the original's.
    public var data: Data?
    /// Where the image came from.
    public var source: ImageSource
    /// The URL that was asked for.
    public var url: URL

    /// The cache tier that answered, in SDWebImage's terms: `.none` for a load (a download,
    /// a file, a `data:` URL).
    public var cacheType: ImageCacheType {
        switch source {
        case .memory: .memory
        case .disk: .disk
        case .network, .file, .data, .revalidated: .none
        }
    }

    /// A result from its parts.
    public init(image: Image, data: Data?, source: ImageSource, url: URL) {
        self.image = image
        self.data = data
        self.source = source
        self.url = url
    }
}
