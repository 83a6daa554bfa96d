import Hummingbird

/// The headers of a client's request that thumbor's HTTP loader sends on to the origin with
/// a thumbor URL's download: every one (`HTTP_LOADER_FORWARD_ALL_HEADERS`), those named
/// (`HTTP_LOADER_FORWARD_HEADERS_WHITELIST`), and its `User-Agent`
/// (`HTTP_LOADER_FORWARD_USER_AGENT`, in place of the server's own).
///
/// Never sent on, whatever the settings: the fields about this connection (`Connection`,
/// `Keep-Alive`, `Proxy-*`, `TE`, `Trailer`, `Transfer-Encoding`, `Upgrade`), the body's
/// (`Content-Length`, `Expect`), the validators the download sends by its own rules
/// (`If-None-Match`, `If-Modified-Since`), and `Authorization` when it carries the server's
/// secret.
struct ThumborHeaderForwarding: Sendable {
    /// Whether every header goes on.
    var forwardsAll = false
    /// The headers that go on, by name (compared without case).
    var names: [String] = []
    /// Whether the client's `User-Agent` goes on.
    var forwardsUserAgent = false
    /// Whether requests carry the server's secret in `Authorization`, which then stays here.
    var keepsAuthorization = false

    /// Whether any header can go on.
    var forwardsAny: Bool { forwardsAll || forwardsUserAgent || !names.isEmpty }

    /// The fields of `fields` that go on, one a name, repeated ones joined by `, `.
    func fields(of fields: HTTPFields) -> [ForwardedField] {
        let wanted = Set(names.map { $0.lowercased() })
        var forwarded: [ForwardedField] = []
        for field in fields {
            let name = field.name.canonicalName
            guard !Self.neverForwarded.contains(name), !(keepsAuthorization && name == "authorization"),
                  forwardsAll || wanted.contains(name) || (forwardsUserAgent && name == "user-agent") else { continue }
            if let index = forwarded.firstIndex(where: { $0.name.lowercased() == name }) {
                forwarded[index].value += (name == "cookie" ? "; " : ", ") + field.value
            } else {
                forwarded.append(ForwardedField(name: field.name.rawName, value: field.value))
            }
        }
        return forwarded
    }

    /// The fields that stay with this request, in lower case.
    private static let neverForwarded: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "proxy-authorization", "proxy-authenticate", "te", "trailer",
        "transfer-encoding", "upgrade", "content-length", "expect", "if-none-match", "if-modified-since", "host",
    ]
}
