import AsyncHTTPClient
import Foundation
import NIOCore

/// Requests under a ``ConnectionAddressPolicy``: every hop connects to the address the policy
/// chose for its host, and redirects are followed here so that each one is asked too.
extension HTTPImageDownloader {
    /// The body of `request` for `download` and its response head, each hop connected where
    /// `policy` says. Each hop counts as progress for the idle watchdog.
    ///
    /// Each hop gets a client of its own whose only DNS entry maps the host to the policy's
    /// address (AsyncHTTPClient's `dnsOverride`): the connection goes there while the `Host`
    /// field, the TLS server name and certificate verification keep the host name. A redirect
    /// (up to ``HTTPImageDownloader.Configuration/maxRedirects``, never a loop) is a new hop,
    /// whose body is not read; one out of `http(s)` goes on to ``check(_:expectedLength:)``,
    /// which refuses it.
    func executePinned(_ request: HTTPClient.Request, of download: DownloadRequest, policy: any ConnectionAddressPolicy)
        async throws -> DownloadExchange.Outcome
    {
        var request = request
        var visited: Set<String> = [request.url.absoluteString]
        while true {
            let client = try await pinnedClient(for: request.url, policy: policy)
            let hop: Result<DownloadExchange.Outcome, any Error>
            do {
                hop = .success(try await exchange(request, of: download, via: client, returnsRedirects: true))
            } catch {
                hop = .failure(error)
            }
            try? await client.shutdown()
            guard case .failure(let redirected as DownloadExchange.Redirected) = hop else { return try hop.get() }
            let next = redirected.target
            guard visited.count <= configuration.maxRedirects else { throw HTTPClientError.redirectLimitReached }
            guard visited.insert(next.absoluteString).inserted else { throw HTTPClientError.redirectCycleDetected }
            request = try Self.redirected(request, to: next)
        }
    }

    /// A client that connects to the address `policy` gives for `url`'s host, and nowhere else.
    private func pinnedClient(for url: URL, policy: any ConnectionAddressPolicy) async throws -> HTTPClient {
        guard let host = url.host(percentEncoded: false).map({ $0.trimmingCharacters(in: CharacterSet(charactersIn: "[]")) }),
              !host.isEmpty
        else {
            throw WebImageError.invalidURL("\(url.absoluteString) has no host")
        }
        let address: String
        do {
            address = try await policy.address(connectingTo: host)
        } catch {
            throw WebImageError.network(error)
        }
        try Task.checkCancellation()
        var pinned = Self.clientConfiguration(for: configuration)
        pinned.redirectConfiguration = .disallow
        pinned.dnsOverride = [host: address]
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: pinned)
    }

    /// `request` sent on to `next` after a redirect: a GET with the same fields, less the
    /// credentials when the origin changes (as AsyncHTTPClient does).
    private static func redirected(_ request: HTTPClient.Request, to next: URL) throws -> HTTPClient.Request {
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
