import Foundation

extension ServerConfiguration {
    /// Which sources are fetched and how: the allowed prefixes and addresses, local files, the download's deadline and redirects (the downloader and the source policy).
    public struct SourceSettings: Sendable, Equatable {
        /// URL prefixes sources must start with; empty allows any.
        public var allowedSources: [String] = []
        /// thumbor's `ALLOWED_SOURCES`: hosts, host patterns and URL patterns an `http(s)` source
        /// must match one of, for either URL form; empty allows any.
        public var thumborAllowedSources: [ThumborSourcePattern] = []
        /// Whether sources resolving to loopback addresses may be fetched.
        public var allowLoopbackSources = false
        /// Whether sources resolving to private and other special addresses may be fetched.
        public var allowPrivateSources = false
        /// How a thumbor URL's image without a scheme is read.
        public var thumborLoader = ThumborLoader.http
        /// The folder `local:///` sources are read from, or nil to refuse them. `webimage serve`
        /// leaves none unset while it ``ServerConfiguration/ListeningSettings/listensOnLoopback``: it serves the current folder then.
        public var localRoot: String?
        /// Seconds a source download may take in all, from its request to its last byte, and so
        /// also the longest it may stall.
        public var downloadTimeout = 5.0
        /// Seconds a connection to an origin may stay idle, waiting to be reused by the next
        /// source fetched from the same host and address (imgproxy's
        /// `IMGPROXY_CLIENT_KEEP_ALIVE_TIMEOUT`); 0: no keep-alive, a connection per fetch.
        public var clientKeepAliveTimeout = 90.0
        /// The `User-Agent` sent to origins (imgproxy's `IMGPROXY_USER_AGENT`), or nil for the
        /// downloader's own, naming WebImage and its version.
        public var userAgent: String?
        /// Redirects a source download follows.
        public var maxRedirects = 10
        /// Whether sources over HTTPS are fetched whatever their certificate (imgproxy's
        /// `IMGPROXY_IGNORE_SSL_VERIFICATION`): for origins with self-signed certificates on a
        /// private network; the address checks still apply.
        public var ignoreSSLVerification = false
        /// Whether a client's cookies go on to the source's origin when their scope covers the
        /// source (imgproxy's `IMGPROXY_COOKIE_PASSTHROUGH`); a download carrying them is the
        /// request's own, neither read from nor kept in any cache.
        public var cookiePassthrough = false
        /// With ``cookiePassthrough``: every cookie goes to every http(s) source, whatever its
        /// address (imgproxy's `IMGPROXY_COOKIE_PASSTHROUGH_ALL`).
        public var cookiePassthroughAll = false
        /// With ``cookiePassthrough``: the address cookies are scoped to, instead of the one the
        /// client asked (imgproxy's `IMGPROXY_COOKIE_BASE_URL`).
        public var cookieBaseURL: URL?
        /// Whether a thumbor URL's download sends on every header of the client's request but
        /// those about its connection (thumbor's `HTTP_LOADER_FORWARD_ALL_HEADERS`); such a
        /// download is never cached.
        public var thumborForwardAllHeaders = false
        /// The headers of the client's request a thumbor URL's download sends on (thumbor's
        /// `HTTP_LOADER_FORWARD_HEADERS_WHITELIST`); such a download is never cached.
        public var thumborForwardHeaders: [String] = []
        /// Whether a thumbor URL's download sends the client's `User-Agent` instead of the
        /// server's (thumbor's `HTTP_LOADER_FORWARD_USER_AGENT`); such a download is never cached.
        public var thumborForwardUserAgent = false

        /// The defaults.
        public init() {}
    }
}
