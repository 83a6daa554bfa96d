import Foundation

/// What callers must have in common to share one HTTP request: the URL and the validators of a
/// conditional request (an unconditional caller must never receive a `304`).
struct DownloadKey: Hashable, Sendable {
    var url: URL
    var ifNoneMatch: String?
    var ifModifiedSince: String?
}
