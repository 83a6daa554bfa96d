import AsyncHTTPClient
import Foundation
import Locking

/// The cookies one downloader keeps when cookie handling is on (SDWebImage's `handleCookies`):
/// stored from `Set-Cookie`, sent back as `Cookie` to matching hosts and paths, in memory only.
final class HTTPCookieJar: Sendable {
    private struct Entry {
        var cookie: HTTPClient.Cookie
        var domain: String
        var hostOnly: Bool
        var expiry: Date?
    }

    private let entries = Mutex<[Entry]>([])

    /// Stores the cookies of `setCookieFields` received from `url`.
    func store(_ setCookieFields: [String], from url: URL) {
        guard let host = url.host?.lowercased(), !setCookieFields.isEmpty else { return }
        let now = Date()
        entries.withLock { entries in
            for field in setCookieFields {
                // An empty default domain tells a host-only cookie (no Domain attribute) apart.
                guard let cookie = HTTPClient.Cookie(header: field, defaultDomain: "") else { continue }
                let declared = String((cookie.domain ?? "").trimmingPrefix("."))
                let domain = declared.isEmpty ? host : declared
                guard host == domain || host.hasSuffix("." + domain) else { continue }
                let expiry = cookie.maxAge.map { now.addingTimeInterval(TimeInterval($0)) } ?? cookie.expires
                entries.removeAll { $0.cookie.name == cookie.name && $0.domain == domain && $0.cookie.path == cookie.path }
                if expiry.map({ $0 > now }) ?? true {
                    entries.append(Entry(cookie: cookie, domain: domain, hostOnly: declared.isEmpty, expiry: expiry))
                }
            }
        }
    }

    /// The `Cookie` field value for a request to `url`, or `nil` when no cookie matches.
    func cookieHeader(for url: URL) -> String? {
        guard let host = url.host?.lowercased() else { return nil }
        let path = url.path.isEmpty ? "/" : url.path
        let secure = url.scheme?.lowercased() == "https"
        let now = Date()
        let pairs = entries.withLock { entries in
            entries.removeAll { $0.expiry.map { $0 <= now } ?? false }
            return entries.filter { entry in
                let hostMatches = entry.hostOnly ? host == entry.domain
                    : host == entry.domain || host.hasSuffix("." + entry.domain)
                return hostMatches && path.hasPrefix(entry.cookie.path) && (secure || !entry.cookie.secure)
            }.map { "\($0.cookie.name)=\($0.cookie.value)" }
        }
        return pairs.isEmpty ? nil : pairs.joined(separator: "; ")
    }
}
