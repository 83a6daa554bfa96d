import AsyncHTTPClient
import Foundation
import NIOCore

/// Requests under a ``ConnectionAddressPolicy``: every hop connects to the address the policy
/// chose for its host, and redirects are followed here so that each one is asked too.
extension HTTPImageDownloader {
    /// The response to `request` for `download`, the URL it finally came from, and the client
    /// that holds its connection (shut it down once the body is read). Each hop counts as
    /// progress for the idle watchdog.
    ///
    /// Each hop gets a client of its own whose only DNS entry maps the host to the policy's
    /// address (AsyncHTTPClient's `dnsOverride`): the connection goes there while the `Host`
    /// field, the TLS server name and certificate verification keep the host name. A redirect
    /// (up to ``HTTPImageDownloader.Configuration/maxRedirects``, never a loop) is a new hop; one
    /// out of `http(s)` is handed back for ``check(_:)`` to refuse.
    func executePinned(_ request: HTTPClientRequest, of download: DownloadRequest, policy: any ConnectionAddressPolicy)
        async throws -> (HTTPClientResponse, URL, HTTPClient)
    {
        var request = request
        var url = download.key.url
        var visited: Set<String> = [url.absoluteString]
        while true {
            let client = try await pinnedClient(for: url, policy: policy)
            let response: HTTPClientResponse
            do {
                response = try await client.execute(request, timeout: requestTimeout)
            } catch {
                try? await client.shutdown()
                throw error
            }
            download.noteActivity()
            guard configuration.maxRedirects > 0, Self.redirectStatusCodes.contains(Int(response.status.code)),
                  let location = response.headers.first(name: "Location"),
                  let next = URL(string: location, relativeTo: url)?.absoluteURL,
                  let scheme = next.scheme?.lowercased(), scheme == "http" || scheme == "https"
            else {
                return (response, url, client)
            }
            try? await client.shutdown()
            guard visited.count <= configuration.maxRedirects else { throw HTTPClientError.redirectLimitReached }
            guard visited.insert(next.absoluteString).inserted else { throw HTTPClientError.redirectCycleDetected }
            request = Self.redirected(request, from: url, to: next)
            url = next
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

    /// `request` sent on to `next` after a redirect from `url`: a GET with the same fields,
    /// less the credentials when the origin changes (as AsyncHTTPClient does).
    private static func redirected(_ request: HTTPClientRequest, from url: URL, to next: URL) -> HTTPClientRequest {
        var followed = HTTPClientRequest(url: next.absoluteString)
        followed.method = .GET
        followed.headers = request.headers
        followed.tlsConfiguration = request.tlsConfiguration
        let sameOrigin = url.scheme?.lowercased() == next.scheme?.lowercased()
            && url.host?.lowercased() == next.host?.lowercased() && url.port == next.port
        if !sameOrigin {
            for name in ["Origin", "Cookie", "Authorization", "Proxy-Authorization"] { followed.headers.remove(name: name) }
        }
        return followed
    }
}
