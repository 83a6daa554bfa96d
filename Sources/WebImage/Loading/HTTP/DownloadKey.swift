import Foundation

/// What callers must have in common to share one HTTP request: the URL and the validators of a
/// conditional request (an unconditional caller must never receive a `304`).
///
/// The hash is computed once, when the key is made: the scheduler's map of joinable requests
/// hashes a key on every lookup and rehashes its neighbours on every removal, and hashing a URL
/// hashes its whole string.
struct DownloadKey: Hashable, Sendable {
    let url: URL
    let ifNoneMatch: String?
    let ifModifiedSince: String?
    private let hash: Int

    init(url: URL, ifNoneMatch: String? = nil, ifModifiedSince: String? = nil) {
        self.url = url
        self.ifNoneMatch = ifNoneMatch
        self.ifModifiedSince = ifModifiedSince
        var hasher = Hasher()
        hasher.combine(url)
        hasher.combine(ifNoneMatch)
        hasher.combine(ifModifiedSince)
        hash = hasher.finalize()
    }

    static func == (a: DownloadKey, b: DownloadKey) -> Bool {
        a.hash == b.hash && a.url == b.url && a.ifNoneMatch == b.ifNoneMatch && a.ifModifiedSince == b.ifModifiedSince
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(hash)
    }
}
