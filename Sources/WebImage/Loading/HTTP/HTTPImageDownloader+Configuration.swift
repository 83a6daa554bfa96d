import Foundation
import NIOSSL

extension HTTPImageDownloader {
    /// How an ``HTTPImageDownloader`` behaves (SDWebImage's `SDWebImageDownloaderConfig`), with
    /// SDWebImage's defaults. A downloader copies its configuration when it is created.
    public struct Configuration: Sendable, Hashable {
        /// The most requests running at once; more wait in the queue. 6 by default.
        public var maxConcurrentDownloads: Int
        /// Seconds without any data before a download fails with ``WebImageError/timedOut(seconds:)``:
        /// an idle timeout, as `NSURLRequest.timeoutInterval` is, applied to connecting, to the wait
        /// for the response head and between two reads of the body. A body that keeps trickling is
        /// bounded by ``maxBytes`` instead. 15 by default; 0 or less means 15.
        ///
        /// Silences in the body are caught by one watchdog per downloader that looks every quarter
        /// of the timeout, rather than by a timer per request re-armed on every read: a download
        /// that stalls fails between one and one and a quarter timeouts after its last byte (or
        /// its start).
        public var downloadTimeout: TimeInterval
        /// The longest a download may take in all, from its start to its last byte, however
        /// steadily its bytes arrive (imgproxy's `IMGPROXY_DOWNLOAD_TIMEOUT`), checked by the same
        /// watchdog; nil, the default, bounds only silences (``downloadTimeout``), as SDWebImage.
        /// A download past it fails with ``WebImageError/timedOut(seconds:)``.
        public var wholeDownloadTimeout: TimeInterval?
        /// Which queued request of one priority starts first.
        public var executionOrder: DownloadExecutionOrder
        /// Header fields sent with every request, by name as written. ``setValue(_:forHTTPHeaderField:)``
        /// keeps names unique regardless of case.
        public private(set) var httpHeaders: [String: String]
        /// Status codes that mean success; others fail with ``WebImageError/badStatusCode(_:)``.
        /// 200–299 by default. A 304 always fails with ``WebImageError/cacheNotModified``.
        public var acceptableStatusCodes: Set<Int>
        /// Media types accepted from `Content-Type` (lowercase, `image/*` style wildcards allowed);
        /// `nil`, the default, accepts anything and lets the decoder judge the bytes.
        public var acceptableContentTypes: Set<String>?
        /// The largest body accepted, in bytes; a larger one (announced or received) stops the
        /// download with ``WebImageError/tooLarge(limit:)``. 64 MiB by default.
        public var maxBytes: Int
        /// Redirects followed per request; 0 follows none (the 3xx fails as a bad status code). 10 by default.
        /// Only redirects to `http` and `https` URLs are followed; one to another scheme (`file:`,
        /// `data:`, `ftp:`, a Unix socket) fails with ``WebImageError/invalidURL(_:)``.
        public var maxRedirects: Int
        /// With a password, sent as HTTP basic authentication (`Authorization: Basic …`).
        public var username: String?
        /// The password for ``username``.
        public var password: String?
        /// Keep cookies the servers set and send them back (SDWebImage's `handleCookies`). Off by
        /// default: no cookie is stored or sent.
        public var handleCookies: Bool
        /// Accept any server certificate (SDWebImage's `allowInvalidSSLCertificates`). Off by default:
        /// certificates are verified.
        public var allowInvalidSSLCertificates: Bool
        /// Seconds a connection to an origin may stay idle in the pool, waiting to be reused by
        /// a later request to the same host (AsyncHTTPClient's `idleTimeout`; imgproxy's
        /// `IMGPROXY_CLIENT_KEEP_ALIVE_TIMEOUT`); 0: no keep-alive, each connection serves one
        /// request. With an address policy, connections are kept per host and checked address.
        public var connectionIdleTimeout: TimeInterval = 60
        /// Which downloads go through a forward proxy (SDWebImage's `sessionConfiguration`'s
        /// proxy): one for all (``HTTPProxyRule/all(through:)``), or the environment's
        /// `HTTP_PROXY`/`HTTPS_PROXY`/`NO_PROXY` (``HTTPProxyRule/environment(_:)``, which an app
        /// asks for; it is not read unless given). Nil, the default, connects directly. With an
        /// address policy, the policy still checks each host first; the proxy then resolves the
        /// name itself, so its own rules must keep it off private networks.
        public var proxy: HTTPProxyRule?
        /// The certificates origins' TLS is verified against instead of the system's roots
        /// (thumbor's `HTTP_LOADER_CA_CERTS`; `NIOSSLCertificate.fromPEMFile(_:)` reads a file
        /// of them); nil, the default, trusts the system's.
        public var trustedCertificates: [NIOSSLCertificate]?
        /// The certificate shown to origins that ask for one; nil, the default, shows none.
        public var clientCertificate: HTTPClientCertificate?
        /// When failed downloads are tried again (``DownloadRetryPolicy``), unless a load's own
        /// ``ImageLoaderOptions/retryPolicy`` says otherwise; nil, the default, tries once, as SDWebImage.
        public var retryPolicy: DownloadRetryPolicy?

        /// The default `Accept` field: images first, anything else accepted.
        public static let defaultAccept = "image/*,*/*;q=0.8"
        /// The default `User-Agent` field, naming WebImage and its version.
        public static let defaultUserAgent = "WebImage/\(WebImageVersion.string) (Linux)"
        /// The timeout used when ``downloadTimeout`` is 0 or less.
        public static let defaultTimeout: TimeInterval = 15

        /// A configuration with the given values; every argument has the default described on its property.
        public init(
            maxConcurrentDownloads: Int = 6,
            downloadTimeout: TimeInterval = HTTPImageDownloader.Configuration.defaultTimeout,
            wholeDownloadTimeout: TimeInterval? = nil,
            executionOrder: DownloadExecutionOrder = .fifo,
            acceptableStatusCodes: Set<Int> = Set(200..<300),
            acceptableContentTypes: Set<String>? = nil,
            maxBytes: Int = 64 << 20,
            maxRedirects: Int = 10,
            username: String? = nil,
            password: String? = nil,
            handleCookies: Bool = false,
            allowInvalidSSLCertificates: Bool = false
        ) {
            self.maxConcurrentDownloads = maxConcurrentDownloads
            self.downloadTimeout = downloadTimeout
            self.wholeDownloadTimeout = wholeDownloadTimeout.flatMap { $0.isFinite ? ($0 > 0 ? $0 : Self.defaultTimeout) : nil }
            self.executionOrder = executionOrder
            self.httpHeaders = ["Accept": Self.defaultAccept, "User-Agent": Self.defaultUserAgent]
            self.acceptableStatusCodes = acceptableStatusCodes
            self.acceptableContentTypes = acceptableContentTypes
            self.maxBytes = maxBytes
            self.maxRedirects = maxRedirects
            self.username = username
            self.password = password
            self.handleCookies = handleCookies
            self.allowInvalidSSLCertificates = allowInvalidSSLCertificates
        }

        /// Sets header field `name` (any case) to `value`, or removes it when `value` is `nil`.
        public mutating func setValue(_ value: String?, forHTTPHeaderField name: String) {
            httpHeaders = httpHeaders.filter { $0.key.lowercased() != name.lowercased() }
            if let value { httpHeaders[name] = value }
        }

        /// The value of header field `name` (any case).
        public func value(forHTTPHeaderField name: String) -> String? {
            httpHeaders.first { $0.key.lowercased() == name.lowercased() }?.value
        }

        /// ``downloadTimeout``, with 0 or less meaning ``defaultTimeout``.
        public var effectiveTimeout: TimeInterval {
            downloadTimeout > 0 ? downloadTimeout : Self.defaultTimeout
        }

        /// Whether `mimeType` passes ``acceptableContentTypes``.
        func accepts(contentType mimeType: String?) -> Bool {
            guard let types = acceptableContentTypes else { return true }
            guard let mimeType else { return false }
            let major = mimeType.split(separator: "/").first.map { "\($0)/*" }
            return types.contains(mimeType) || types.contains("*/*") || major.map(types.contains) == true
        }
    }
}
