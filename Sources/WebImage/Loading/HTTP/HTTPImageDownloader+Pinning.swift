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
    /// (see ``RedirectTrail``) is a new hop, whose body is not read; one out of `http(s)` goes on
    /// to ``check(_:expectedLength:)``, which refuses it.
    func executePinned(_ request: HTTPClient.Request, of download: DownloadRequest, policy: any ConnectionAddressPolicy)
        async throws -> DownloadExchange.Outcome
    {
        var request = request
        var trail = RedirectTrail(from: request.url, limit: configuration.maxRedirects)
        while true {
            let client = try await pinnedClient(for: request.url, policy: policy)
            let hop: Result<DownloadExchange.Outcome, any Error>
            do {
                hop = .success(try await exchange(request, of: download, via: client))
            } catch {
                hop = .failure(error)
            }
            try? await client.shutdown()
            guard case .failure(let redirected as DownloadExchange.Redirected) = hop else { return try hop.get() }
            request = try trail.follow(request, to: redirected.target)
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
        var pinned = Self.clientConfiguration(for: configuration, tracesItself: tracer != nil)
        pinned.dnsOverride = [host: address]
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: pinned)
    }
}
