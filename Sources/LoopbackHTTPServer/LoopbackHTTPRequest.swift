import Foundation

/// A request as ``LoopbackHTTPServer`` received it.
public struct LoopbackHTTPRequest: Sendable, Hashable {
    /// `GET`, `HEAD`, …
    public let method: String
    /// The path, without the query.
    public let path: String
    /// The query after `?`, if any.
    public let query: String?
    /// Header fields by lowercase name (repeated fields joined with `", "`).
    public let headers: [String: String]
    /// The body, nil when it had none.
    public let body: Data?

    /// A request from its parts.
    public init(method: String, path: String, query: String?, headers: [String: String], body: Data? = nil) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// The value of header field `name` (any case).
    public subscript(header name: String) -> String? {
        headers[name.lowercased()]
    }
}
