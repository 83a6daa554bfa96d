import Foundation

/// Which downloads go through which ``HTTPProxy``: every one through one proxy, or by the
/// environment's `HTTP_PROXY`, `HTTPS_PROXY` and `NO_PROXY` (``environment(_:)``), read as Go's
/// `net/http` reads them, which is what imgproxy's downloads follow.
public struct HTTPProxyRule: Sendable, Hashable {
    /// The proxy of `http` URLs, or nil to connect directly.
    public var httpProxy: HTTPProxy?
    /// The proxy of `https` URLs, or nil to connect directly.
    public var httpsProxy: HTTPProxy?
    /// The hosts reached directly whatever the proxies (`NO_PROXY`'s entries): `*` for all, a
    /// name for itself and its subdomains (`example.com`, `.example.com`), an address, a CIDR
    /// block (`10.0.0.0/8`), each with an optional `:port`. `localhost` and loopback addresses
    /// are always reached directly, as Go reaches them.
    public var directHosts: [String]

    /// A rule from its parts.
    public init(httpProxy: HTTPProxy? = nil, httpsProxy: HTTPProxy? = nil, directHosts: [String] = []) {
        self.httpProxy = httpProxy
        self.httpsProxy = httpsProxy
        self.directHosts = directHosts
    }

    /// Every download through `proxy`, loopback and `localhost` ones too.
    public static func all(through proxy: HTTPProxy) -> HTTPProxyRule {
        var rule = HTTPProxyRule(httpProxy: proxy, httpsProxy: proxy)
        rule.proxiesLoopback = true
        return rule
    }

    /// The rule of `environment`'s `HTTP_PROXY`, `HTTPS_PROXY` and `NO_PROXY` (each name in
    /// lower case when the upper-case one is unset, as Go reads them).
    public static func environment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> HTTPProxyRule {
        func value(_ name: String) -> String? {
            environment[name].flatMap { $0.isEmpty ? nil : $0 } ?? environment[name.lowercased()].flatMap { $0.isEmpty ? nil : $0 }
        }
        return HTTPProxyRule(httpProxy: value("HTTP_PROXY").flatMap(HTTPProxy.init(url:)),
                             httpsProxy: value("HTTPS_PROXY").flatMap(HTTPProxy.init(url:)),
                             directHosts: directHosts(in: value("NO_PROXY") ?? ""))
    }

    /// The entries of a `NO_PROXY`-style list: comma-separated, spaces around them dropped.
    public static func directHosts(in list: String) -> [String] {
        list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Whether loopback hosts go through the proxies too (only with ``all(through:)``).
    private var proxiesLoopback = false

    /// The proxy a download of `url` goes through, or nil to connect directly.
    public func proxy(for url: URL) -> HTTPProxy? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host(percentEncoded: false)?.lowercased(), !host.isEmpty else { return nil }
        let proxy = scheme == "https" ? httpsProxy : scheme == "http" ? httpProxy : nil
        guard let proxy else { return nil }
        if proxiesLoopback { return proxy }
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if bare == "localhost" || Self.isLoopback(bare) { return nil }
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return directHosts.contains { Self.entry($0, covers: bare, port: port) } ? nil : proxy
    }

    /// Whether `NO_PROXY` entry `entry` covers `host` at `port`.
    private static func entry(_ entry: String, covers host: String, port: Int) -> Bool {
        if entry == "*" { return true }
        var name = entry.lowercased()
        if let (block, bits) = cidr(name) { return IPAddressBytes(host).map { $0.isWithin(block, bits: bits) } ?? false }
        // A trailing :port: after a bracketed IPv6 address, or after a name or IPv4 address (one colon).
        if name.hasPrefix("["), let close = name.firstIndex(of: "]") {
            let rest = name[name.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":"), Int(rest.dropFirst()) == port else { return false }
            }
            name = String(name[name.index(after: name.startIndex)..<close])
        } else if let colon = name.firstIndex(of: ":"), colon == name.lastIndex(of: ":") {
            guard Int(name[name.index(after: colon)...]) == port else { return false }
            name = String(name[..<colon])
        }
        if IPAddressBytes(name) != nil { return IPAddressBytes(name) == IPAddressBytes(host) }
        let domain = name.hasPrefix("*.") ? String(name.dropFirst(2)) : name.hasPrefix(".") ? String(name.dropFirst()) : name
        return host == domain || host.hasSuffix("." + domain)
    }

    /// The address and prefix length of a CIDR entry, or nil.
    private static func cidr(_ entry: String) -> (IPAddressBytes, Int)? {
        guard let slash = entry.firstIndex(of: "/"), let address = IPAddressBytes(String(entry[..<slash])),
              let bits = Int(entry[entry.index(after: slash)...]), bits >= 0, bits <= address.bytes.count * 8 else { return nil }
        return (address, bits)
    }

    /// Whether `host` is a loopback address (127/8, ::1).
    private static func isLoopback(_ host: String) -> Bool {
        guard let address = IPAddressBytes(host) else { return false }
        return address.bytes.count == 4 ? address.bytes[0] == 127 : address.bytes == [UInt8](repeating: 0, count: 15) + [1]
    }
}
