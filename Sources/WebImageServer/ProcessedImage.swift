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

    /// A result of `data` in `format`, from `source`.
    public init(data: Data, format: ImageFormat, source: ResultSource = .made) {
        self.data = data
        self.format = format
        self.source = source
    }

    /// The `Content-Type` for ``format``: `image/jpeg`, `image/png`, `image/webp`, `image/avif`, `image/gif`.
    public var mediaType: String { "image/\(format.rawValue)" }
}
