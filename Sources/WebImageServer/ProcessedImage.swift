import Foundation
import WebImage

/// An encoded result: the bytes a server sends and what it says about them.
public struct ProcessedImage: Sendable, Hashable {
    /// The encoded image.
    public var data: Data
    /// The format of ``data``.
    public var format: ImageFormat

    /// A result of `data` in `format`.
    public init(data: Data, format: ImageFormat) {
        self.data = data
        self.format = format
    }

    /// The `Content-Type` for ``format``: `image/jpeg`, `image/png`, `image/webp`, `image/avif`, `image/gif`.
    public var mediaType: String { "image/\(format.rawValue)" }
}
