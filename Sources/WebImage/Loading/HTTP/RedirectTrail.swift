import AsyncHTTPClient
import Foundation

/// The redirects of one download, which the downloader follows itself rather than leaving them
/// to AsyncHTTPClient: each `Location` is checked (``HTTPRequestURL``) before a request is
/// built for it, since AsyncHTTPClient would build one for any URL it reads there, and trap on
/// some (a port above 65535). Under a ``ConnectionAddressPolicy`` each hop is also a new
/// connection the policy chooses.
struct RedirectTrail: Sendable {
    /// The URLs requested so far.
    private var visited: Set<String>
    /// How many redirects may be followed.
    private let limit: Int

    /// The trail of a download whose first request goes to `url`, following at most `limit` redirects.
    init(from url: URL, limit: Int) {
        visited = [url.absoluteString]
        self.limit = limit
    }

    /// The request to send after `request` was redirected to `next`: a GET with the same fields,
    /// less the credentials when the origin changes (as AsyncHTTPClient does). Throws
    /// `HTTPClientError.redirectLimitReached` past the limit, `.redirectCycleDetected` for a
    /// URL visited before, and ``WebImageError/invalidURL(_:)`` for one that cannot be requested.
    mutating func follow(_ request: HTTPClient.Request, to next: URL) throws -> HTTPClient.Request {
        guard visited.count <= limit else { throw HTTPClientError.redirectLimitReached }
        guard visited.insert(next.absoluteString).inserted else { throw HTTPClientError.redirectCycleDetected }
        if let problem = HTTPRequestURL.problem(with: next) {
            throw WebImageError.invalidURL("refused a redirect to \(next.absoluteString), which \(problem)")
        }
        let url = request.url
        var followed = try HTTPClient.Request(url: next, method: .GET, headers: request.headers,
                                              tlsConfiguration: request.tlsConfiguration)
        let sameOrigin = url.scheme?.lowercased() == next.scheme?.lowercased()
            && url.host?.lowercased() == next.host?.lowercased() && url.port == next.port
        if !sameOrigin {
            for name in ["Origin", "Cookie", "Authorization", "Proxy-Authorization"] { followed.headers.remove(name: name) }
        }
        return followed
    }
}
