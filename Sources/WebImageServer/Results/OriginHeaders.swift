import Foundation
import WebImage

/// What a source's origin said of it besides its bytes that a result may pass on: its
/// validators (`ETag`, `Last-Modified`) and how long caches may keep it.
public struct OriginHeaders: Sendable, Hashable {
    /// The origin's `ETag`, as sent (quotes and `W/` kept).
    public var etag: String?
    /// The origin's `Last-Modified`; nil when it sent none or one that is no HTTP date.
    public var lastModified: Date?
    /// Its `Cache-Control`, else its `Expires`.
    public var lifetime: ResultLifetime?

    /// The headers of an origin's `response`.
    public init(_ response: ImageLoadResponse) {
        etag = response.etag
        lastModified = response.lastModified.flatMap(HTTPDate.date(from:))
        lifetime = ResultLifetime(cacheControl: response[header: "Cache-Control"], expires: response[header: "Expires"])
    }

    /// The `Last-Modified` answered for the source under `configuration`: the origin's, raised
    /// to the ``ServerConfiguration/AnswerSettings/lastModifiedBuster``; nil when the origin sent none or
    /// ``ServerConfiguration/AnswerSettings/useLastModified`` is off.
    func answeredLastModified(under configuration: ServerConfiguration.AnswerSettings) -> Date? {
        guard configuration.useLastModified, let lastModified else { return nil }
        return max(lastModified, configuration.lastModifiedBuster ?? lastModified)
    }

    /// Headers from their parts.
    public init(etag: String? = nil, lastModified: Date? = nil, lifetime: ResultLifetime? = nil) {
        self.etag = etag
        self.lastModified = lastModified
        self.lifetime = lifetime
    }
}
