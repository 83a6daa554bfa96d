import Foundation
import WebImage

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
        /// What splits an `s3://` or `local://` source's key from its query (imgproxy's
        /// `IMGPROXY_SOURCE_URL_QUERY_SEPARATOR`): `?` by default; empty, the query is part of the
        /// key (an object or file whose name holds `?`); any other text, the first place it occurs.
        public var sourceURLQuerySeparator = "?"
        /// The proxy of `http` sources (Go's `HTTP_PROXY`, which imgproxy's downloads follow).
        public var httpProxy: HTTPProxy?
        /// The proxy of `https` sources (`HTTPS_PROXY`).
        public var httpsProxy: HTTPProxy?
        /// The hosts fetched directly whatever ``httpProxy`` and ``httpsProxy`` (`NO_PROXY`'s
        /// entries); `localhost` and loopback addresses always are.
        public var noProxy: [String] = []
        /// The host of the proxy every source is fetched through, loopback ones too, over the
        /// environment's (thumbor's `HTTP_LOADER_PROXY_HOST`); nil: none.
        public var sourceProxyHost: String?
        /// Its port (thumbor's `HTTP_LOADER_PROXY_PORT`), which a host needs.
        public var sourceProxyPort: Int?
        /// With ``sourceProxyPassword``, the proxy's basic credentials (thumbor's
        /// `HTTP_LOADER_PROXY_USERNAME` and `_PASSWORD`).
        public var sourceProxyUsername: String?
        /// See ``sourceProxyUsername``.
        public var sourceProxyPassword: String?
        /// A PEM file of the certificates sources' TLS is verified against instead of the
        /// system's roots (thumbor's `HTTP_LOADER_CA_CERTS`).
        public var caCertificatesFile: String?
        /// The PEM files of the certificate chain and private key shown to origins that ask for
        /// a client certificate (thumbor's `HTTP_LOADER_CLIENT_CERT` and `HTTP_LOADER_CLIENT_KEY`).
        public var clientCertificateFile: String?
        /// See ``clientCertificateFile``.
        public var clientKeyFile: String?

        /// Which sources go through which proxy: ``sourceProxyHost``'s for all, else the
        /// environment's; nil: none. Throws when a proxy host has no port.
        func proxyRule() throws(SettingValueError) -> HTTPProxyRule? {
            if let host = sourceProxyHost {
                guard let port = sourceProxyPort else { throw SettingValueError(reason: "--source-proxy-host needs --source-proxy-port") }
                return .all(through: HTTPProxy(host: host, port: port, username: sourceProxyUsername, password: sourceProxyPassword))
            }
            guard httpProxy != nil || httpsProxy != nil else { return nil }
            return HTTPProxyRule(httpProxy: httpProxy, httpsProxy: httpsProxy, directHosts: noProxy)
        }

        /// The defaults.
        public init() {}
    }
}
