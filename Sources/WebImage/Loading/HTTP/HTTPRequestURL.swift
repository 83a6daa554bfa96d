import Foundation

/// The checks a URL passes before the downloader hands it to AsyncHTTPClient.
///
/// AsyncHTTPClient and SwiftNIO trap, rather than throw, on some URLs: a port above 65535
/// reaches `SocketAddress`'s `UInt16` conversion when the request is built. A URL comes from a
/// caller, an image server's path or an origin's `Location` field, any of them hostile, so
/// every URL is checked here first — the first one and every redirect — and refused with a
/// ``WebImageError/invalidURL(_:)`` that says why.
public enum HTTPRequestURL {
    /// The ports a request may connect to.
    public static let ports: ClosedRange<Int> = 1...65535

    /// Why `url` cannot be requested over HTTP, as what follows the URL in a sentence ("has no
    /// host"), or nil when it can: its scheme is `http` or `https`, it has a host, and its port
    /// (when it names one) is in ``ports``.
    public static func problem(with url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return "is not an http(s) URL"
        }
        guard let host = url.host, !host.isEmpty else { return "has no host" }
        // The host as AsyncHTTPClient reads it: percent-decoded, one bracket pair stripped. One
        // that is empty then (`http://%5B%5D/`) would trap in its request building.
        var bare = Substring(host)
        if bare.hasPrefix("[") { bare = bare.dropFirst() }
        if bare.hasSuffix("]") { bare = bare.dropLast() }
        guard !bare.isEmpty else { return "has no host" }
        guard !bare.unicodeScalars.contains(where: { "[]".unicodeScalars.contains($0) || $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F })
        else { return "has a host with brackets, spaces or control characters" }
        if let port = url.port {
            guard ports.contains(port) else { return "has port \(port), outside \(ports.lowerBound)…\(ports.upperBound)" }
        } else if hasPortText(url) {
            // Foundation reports no port for one that does not fit an `Int`.
            return "has a port outside \(ports.lowerBound)…\(ports.upperBound)"
        }
        return nil
    }

    /// Throws ``WebImageError/invalidURL(_:)`` saying what is wrong with `url`, if anything
    /// (see ``problem(with:)``).
    public static func check(_ url: URL) throws(WebImageError) {
        if let problem = problem(with: url) { throw .invalidURL("\(url.absoluteString) \(problem)") }
    }

    /// Whether the authority of `url` (`//user@host:port`) has digits after its host's `:`,
    /// which a port too large for an `Int` leaves where Foundation reports none.
    private static func hasPortText(_ url: URL) -> Bool {
        let text = url.absoluteString
        guard let start = text.range(of: "://")?.upperBound else { return false }
        var authority = text[start...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if authority.first == "[", let close = authority.firstIndex(of: "]") {
            authority = authority[authority.index(after: close)...]
        } else if let colon = authority.firstIndex(of: ":") {
            authority = authority[colon...]
        }
        return authority.first == ":" && authority.count > 1
    }
}
