import Foundation

/// A request path parsed as imgproxy reads it: the signature, the path it signs, the options
/// and the source image's URL.
public struct ProcessingURL: Sendable, Hashable {
    /// The first segment, exactly as received: the signature, or anything when signing is off.
    public var signature: String
    /// Everything after the signature segment, starting with `/`, exactly as received (still
    /// percent-encoded): what the signature signs.
    public var signedPath: String
    /// The options, presets expanded, the URL's extension applied as the format.
    public var options: ProcessingOptions
    /// The source image: `http`, `https` or `local`.
    public var source: URL
    /// Whose form the path was in: failures are answered with that server's statuses.
    public var form = ProcessingURLForm.imgproxy
    /// The source fetched instead when ``source`` is a local file that is missing or refused:
    /// thumbor's `file_loader_http_fallback`, `http://` and the image part; nil for none.
    public var sourceFallback: URL?

    /// Identifies the output image regardless of the signature, option spelling and order:
    /// the source URL and the canonical options.
    public var cacheKey: String {
        "\(source.absoluteString)|\(options.canonicalKey)"
    }
}
