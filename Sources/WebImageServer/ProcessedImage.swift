import Foundation
import WebImage

/// An encoded result: the bytes a server sends and what it says about them.
public struct ProcessedImage: Sendable, Hashable {
    /// The encoded image.
    public var data: Data
    /// The format of ``data``.
    public var format: ImageFormat
    /// Whether it was made for this request or came from the result cache.
    public var source: ResultSource
    /// When the result was made, to the second: its `Last-Modified`, kept with the cached copies.
    public var created: Date
    /// Where the source image came from (network, disk cache, file...) when the result was made
    /// for this request; nil for a result from the cache.
    public var sourceOrigin: ImageSource?

    /// A result of `data` in `format`, from `source`, made at `created` (cut to whole seconds,
    /// as HTTP dates are), from a source image that came from `sourceOrigin`.
    public init(data: Data, format: ImageFormat, source: ResultSource = .made, created: Date = Date(),
                sourceOrigin: ImageSource? = nil) {
        self.data = data
        self.format = format
        self.source = source
        self.created = Date(timeIntervalSince1970: created.timeIntervalSince1970.rounded(.down))
        self.sourceOrigin = sourceOrigin
    }

    /// The `Content-Type` for ``format``: `image/jpeg`, `image/png`, `image/webp`, `image/avif`, `image/gif`.
    public var mediaType: String { "image/\(format.rawValue)" }
}
