import AsyncHTTPClient
import Foundation
import NIOCore

/// Requests under a ``ConnectionAddressPolicy``: every hop connects to the address the policy
/// chose for its host, and redirects are followed here so that each one is asked too.
extension HTTPImageDownloader {
    /// The body of `request` for `download` and its response head, each hop connected where
    /// `policy` says. Each hop counts as progress for the idle watchdog.
    ///
    /// Each hop gets a client whose only DNS entry maps the host to the policy's address
    /// (AsyncHTTPClient's `dnsOverride`): the connection goes there while the `Host` field, the
    /// TLS server name and certificate verification keep the host name. The client of a host
    /// and address is kept for the connections' idle time (``PinnedClientPool``), so later hops
    /// to the same host and address reuse its connections. A redirect
    /// (see ``RedirectTrail``) is a new hop, whose body is not read; one out of `http(s)` goes on
    /// to ``check(_:expectedLength:)``, which refuses it.
    func executePinned(_ request: HTTPClient.Request, of download: DownloadRequest, policy: any ConnectionAddressPolicy)
        async throws -> DownloadExchange.Outcome
    {
        var request = request
        var trail = RedirectTrail(from: request.url, limit: configuration.maxRedirects)
        while true {
            let (host, address) = try await pinnedAddress(for: request.url, policy: policy)
            let proxy = configuration.proxy?.proxy(for: request.url)
            // A proxied hop's client is kept apart from the direct one's.
            let kept = proxy.map { address + " via \($0.host):\($0.port)" } ?? address
            let client = pinnedClients.client(host: host, address: kept) {
                var pinned = Self.clientConfiguration(for: configuration, tracesItself: tracer != nil, proxy: proxy)
                pinned.dnsOverride = [host: address]
                return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: pinned)
            }
            let hop: Result<DownloadExchange.Outcome, any Error>
            do {
                hop = .success(try await exchange(request, of: download, via: client))
            } catch {
                hop = .failure(error)
            }
            await pinnedClients.release(host: host, address: kept)
            guard case .failure(let redirected as DownloadExchange.Redirected) = hop else { return try hop.get() }
            request = try trail.follow(request, to: redirected.target)
        }
    }

    /// `url`'s host and the address `policy` gives for it, the only one its hop connects to.
    private func pinnedAddress(for url: URL, policy: any ConnectionAddressPolicy) async throws -> (host: String, address: String) {
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
        return (host, address)
    }
}
