extension NetworkFailure {
    /// What went wrong on the way to the bytes of an image.
    public enum Reason: Sendable, Hashable, CustomStringConvertible {
        /// Nothing accepted the connection at the host and port.
        case connectionRefused(host: String, port: Int)
        /// The host name did not resolve to an address.
        case hostNotFound(String)
        /// The server's certificate was not trusted: self-signed, expired, from an unknown
        /// authority, or for another name. ``WebImageOptions/allowInvalidSSLCertificates``
        /// accepts it anyway.
        case untrustedCertificate(host: String)
        /// The TLS handshake with the host failed for another reason (no common protocol or cipher).
        case secureConnectionFailed(host: String)
        /// The server closed the connection before the response was complete.
        case connectionLost
        /// A redirect led back to a URL already visited.
        case redirectLoop
        /// The server redirected more often than the limit allows.
        case tooManyRedirects(limit: Int)
        /// A ``ConnectionAddressPolicy`` refused to connect to the host, and why ("the source
        /// resolves to a loopback address").
        case refusedAddress(host: String, why: String)
        /// A file that could not be read, and why ("no such file or directory").
        case unreadableFile(path: String, why: String)
        /// Anything else, in words.
        case other(String)

        public var description: String {
            switch self {
            case .connectionRefused(let host, let port): "connection refused by \(host):\(port)"
            case .hostNotFound(let host): "the host \(host) was not found"
            case .untrustedCertificate(let host): "the certificate of \(host) is not trusted (self-signed, expired, or for another name)"
            case .secureConnectionFailed(let host): "no secure connection could be made with \(host)"
            case .connectionLost: "the server closed the connection before the image was complete"
            case .redirectLoop: "the redirects lead in a loop"
            case .tooManyRedirects(let limit): "too many redirects (more than \(limit))"
            case .refusedAddress(_, let why): why
            case .unreadableFile(let path, let why): "cannot read \(path): \(why)"
            case .other(let what): what
            }
        }
    }
}

extension NetworkFailure.Reason {
    /// Whether the reason may pass if asked again (a refused or lost connection, a name not
    /// found, a failed handshake): what ``DownloadRetryPolicy`` retries. A certificate nobody
    /// vouches for, a redirect loop, an address refused by policy or an unreadable file do not pass.
    public var isTransient: Bool {
        switch self {
        case .connectionRefused, .hostNotFound, .secureConnectionFailed, .connectionLost, .other: true
        case .untrustedCertificate, .redirectLoop, .tooManyRedirects, .refusedAddress, .unreadableFile: false
        }
    }
}
