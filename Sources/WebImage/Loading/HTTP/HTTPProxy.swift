import Foundation

/// A forward HTTP proxy downloads go through: AsyncHTTPClient opens a `CONNECT` tunnel to the
/// origin through it, for `http` and `https` URLs alike, so the proxy sees the host and port
/// but never an `https` request's bytes.
public struct HTTPProxy: Sendable, Hashable {
    /// The proxy's host name or address.
    public var host: String
    /// The proxy's port.
    public var port: Int
    /// With ``password``, sent as `Proxy-Authorization: Basic …` with each `CONNECT`.
    public var username: String?
    /// The password for ``username``.
    public var password: String?

    /// A proxy at `host`:`port`, with basic credentials when `username` is given.
    public init(host: String, port: Int, username: String? = nil, password: String? = nil) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
    }

    /// The proxy an `HTTP_PROXY`-style value names: `http://user:password@host:port`, or
    /// `host:port` without a scheme (port 80 when none is given, as Go and curl read it); nil
    /// for an empty value, another scheme (`https://`, `socks5://`) or one without a host.
    public init?(url text: String) {
        let text = text.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty, let url = URL(string: text.contains("://") ? text : "http://" + text),
              url.scheme?.lowercased() == "http", let host = url.host(percentEncoded: false), !host.isEmpty else { return nil }
        self.init(host: host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")), port: url.port ?? 80,
                  username: url.user(percentEncoded: false), password: url.password(percentEncoded: false))
    }
}
