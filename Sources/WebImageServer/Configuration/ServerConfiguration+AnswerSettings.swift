import Foundation

extension ServerConfiguration {
    /// How answers may be cached by clients: their lifetime and validators (the answers the responder builds).
    public struct AnswerSettings: Sendable, Equatable {
        /// `Cache-Control` max-age of images, in seconds.
        public var ttl = 31_536_000
        /// Whether answers carry an `ETag` (naming the result's bytes) and a client's
        /// `If-None-Match` is honoured, and sent on to the origin when the result is made from a
        /// download (imgproxy's `IMGPROXY_USE_ETAG`).
        public var useETag = true
        /// Whether answers carry a `Last-Modified` (the origin's, when the result was made from a
        /// download that had one, else when it was made) and a client's `If-Modified-Since` is
        /// honoured and sent on to the origin (imgproxy's `IMGPROXY_USE_LAST_MODIFIED`).
        public var useLastModified = true
        /// A time no origin's `Last-Modified` is answered as earlier than, and before which a
        /// client's `If-Modified-Since` is not sent on (imgproxy's `IMGPROXY_LAST_MODIFIED_BUSTER`):
        /// moved forward, it makes every client copy from before it stale.
        public var lastModifiedBuster: Date?
        /// A word every answered `ETag` carries (`"BUSTER/…"`, imgproxy's `IMGPROXY_ETAG_BUSTER`):
        /// changed, it makes every client copy stale; a client's `If-None-Match` without it is
        /// not sent on to the origin, one with it is sent without it. Nil for none.
        public var etagBuster: String?

        /// `etag` (quoted) as it is answered: with the ``etagBuster`` inside the quotes when there is one.
        func answeredETag(_ etag: String) -> String {
            guard let etagBuster else { return etag }
            return "\"" + etagBuster + "/" + etag.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) + "\""
        }

        /// A client's `If-None-Match` tag as the origin gave it: without the ``etagBuster``, nil
        /// when it does not carry it (a copy from before the buster is stale); as it is without one.
        func originETag(_ answered: String) -> String? {
            guard let etagBuster else { return answered }
            let prefix = "\"" + etagBuster + "/"
            let weak = answered.hasPrefix("W/")
            let tag = weak ? String(answered.dropFirst(2)) : answered
            guard tag.hasPrefix(prefix) else { return nil }
            return (weak ? "W/" : "") + "\"" + tag.dropFirst(prefix.count)
        }
        /// Whether a result is answered with its origin's `Cache-Control`, or `max-age` until its
        /// `Expires`, in place of ``ttl`` (imgproxy's `IMGPROXY_CACHE_CONTROL_PASSTHROUGH`).
        public var cacheControlPassthrough = false
        /// Whether an image made from an `http` or `https` source is answered with
        /// `Link: <SOURCE>; rel="canonical"` (imgproxy's `IMGPROXY_SET_CANONICAL_HEADER`), so that
        /// search engines credit the original.
        public var setCanonicalHeader = false
        /// Whether results made by this process are answered with imgproxy's debug headers
        /// (`IMGPROXY_ENABLE_DEBUG_HEADERS`): `X-Origin-Content-Length`, `X-Origin-Width`,
        /// `X-Origin-Height`, `X-Result-Width`, `X-Result-Height` (see ``ResultDimensions``).
        public var enableDebugHeaders = false
        /// The headers a URL's `cache_tags` are answered in (imgproxy's `IMGPROXY_CACHE_TAGS_FORMAT`).
        public var cacheTagsFormat = CacheTagsFormat.all

        /// The defaults.
        public init() {}
    }
}
