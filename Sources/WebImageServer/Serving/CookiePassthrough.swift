import Foundation
import Hummingbird

/// Which of a client's cookies go on to a source's origin (imgproxy's
/// `IMGPROXY_COOKIE_PASSTHROUGH`): those whose scope covers the source URL, the scope being the
/// address the client asked (`X-Forwarded-Proto`, `X-Forwarded-Host` or `Host`,
/// `X-Forwarded-Port`), or ``baseURL`` when set (`IMGPROXY_COOKIE_BASE_URL`); every cookie, to
/// any http(s) source, with ``passesAll`` (`IMGPROXY_COOKIE_PASSTHROUGH_ALL`).
///
/// A request's cookies carry no domain or path, so they are scoped as a browser scopes a cookie
/// set without them (RFC 6265 §5.3): the scope's host alone, any port, and the paths under its
/// path's directory. Only well-formed `name=value` pairs are sent on, so no byte a field may not
/// hold reaches the origin.
struct CookiePassthrough: Sendable {
    /// Whether every cookie goes to every http(s) source, whatever its address.
    var passesAll = false
    /// The address cookies are taken to be scoped to, instead of the one the client asked.
    var baseURL: URL?

    /// The `Cookie` field to send with a download of `source` for `request`, or nil when no
    /// cookie of it applies.
    func cookie(for source: URL, in request: HTTPRequest) -> String? {
        let fields = request.headerFields
        guard let scheme = source.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return nil }
        let pairs = fields[values: .cookie].flatMap(Self.pairs)
        guard !pairs.isEmpty else { return nil }
        if !passesAll {
            guard let scope = baseURL ?? Self.askedAddress(in: request), let host = source.host?.lowercased(),
                  host == scope.host?.lowercased(), Self.path(source.path, isWithin: Self.defaultPath(of: scope.path)) else { return nil }
        }
        return pairs.joined(separator: "; ")
    }

    /// The address the client asked for, as the proxies in front of the server say.
    private static func askedAddress(in request: HTTPRequest) -> URL? {
        let fields = request.headerFields
        let scheme = fields[forwardedProto].flatMap { $0.isEmpty ? nil : $0 } ?? "http"
        guard var host = fields[forwardedHost].flatMap({ $0.isEmpty ? nil : $0 }) ?? request.authority, !host.isEmpty else { return nil }
        if let port = fields[forwardedPort], !port.isEmpty { host += ":" + port }
        return URL(string: scheme + "://" + host + "/")
    }

    /// RFC 6265's default path of a cookie set at `path`: its directory, `/` for a path with one slash or none.
    private static func defaultPath(of path: String) -> String {
        guard path.hasPrefix("/"), let last = path.lastIndex(of: "/"), last != path.startIndex else { return "/" }
        return String(path[..<last])
    }

    /// RFC 6265's path-match: `path` is `scope` or lies under it.
    private static func path(_ path: String, isWithin scope: String) -> Bool {
        let path = path.isEmpty ? "/" : path
        guard path.hasPrefix(scope) else { return false }
        return path.count == scope.count || scope.hasSuffix("/") || path.dropFirst(scope.count).hasPrefix("/")
    }

    /// The well-formed `name=value` pairs of one `Cookie` field: a token for the name, cookie
    /// octets (or them in quotes) for the value.
    private static func pairs(_ field: String) -> [String] {
        field.split(separator: ";").compactMap { part in
            let pair = part.trimmingCharacters(in: .whitespaces)
            guard let equals = pair.firstIndex(of: "=") else { return nil }
            let name = pair[..<equals], value = pair[pair.index(after: equals)...]
            guard HTTPToken.isToken(name) else { return nil }
            let bare = value.count >= 2 && value.hasPrefix("\"") && value.hasSuffix("\"") ? value.dropFirst().dropLast() : value
            guard bare.unicodeScalars.allSatisfy(isCookieOctet) else { return nil }
            return pair
        }
    }

    /// RFC 6265's `cookie-octet`: printable ASCII but space, `"`, `,`, `;` and `\`.
    private static func isCookieOctet(_ scalar: Unicode.Scalar) -> Bool {
        (0x21...0x7E).contains(scalar.value) && !"\",;\\".unicodeScalars.contains(scalar)
    }

    private static let forwardedProto = HTTPFields.Element.Name("X-Forwarded-Proto")!
    private static let forwardedHost = HTTPFields.Element.Name("X-Forwarded-Host")!
    private static let forwardedPort = HTTPFields.Element.Name("X-Forwarded-Port")!
}
