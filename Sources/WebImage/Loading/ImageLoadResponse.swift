import Foundation

/// What a loader learnt about the bytes besides the bytes: the final URL, the HTTP status and
/// headers. The manager keeps ``etag`` and ``lastModified`` with the cache entry and sends them
/// back as ``ImageLoaderOptions/ifNoneMatch`` and ``ImageLoaderOptions/ifModifiedSince``.
public struct ImageLoadResponse: Sendable, Hashable {
    /// The URL the bytes came from (after redirects).
    public var url: URL
    /// The HTTP status code; `nil` for loaders that do not speak HTTP (`file:`, `data:`).
    public var statusCode: Int?
    /// Header fields by lowercase name; a field sent several times has its values joined by
    /// `", "` as RFC 9110 allows.
    public var headers: [String: String]

    /// A response from its parts. Header names are lowercased.
    public init(url: URL, statusCode: Int? = nil, headers: [String: String] = [:]) {
        self.init(url: url, statusCode: statusCode,
                  lowercasedHeaders: Dictionary(headers.map { (Self.lowercasedFieldName($0.key), $0.value) }) { "\($0), \($1)" })
    }

    /// A response whose header names are lowercase already.
    init(url: URL, statusCode: Int?, lowercasedHeaders: [String: String]) {
        self.url = url
        self.statusCode = statusCode
        self.headers = lowercasedHeaders
    }

    /// The value of header field `name` (any case).
    public subscript(header name: String) -> String? {
        headers[Self.lowercasedFieldName(name)]
    }

    /// `name` in lowercase. Field names are ASCII (RFC 9110): a name servers commonly send comes
    /// back as a shared literal whatever its case, one already lowercase as it is, and only
    /// other names are case-mapped (this runs for every field of every response).
    static func lowercasedFieldName(_ name: String) -> String {
        let utf8 = name.utf8
        for known in commonFieldNames where known.utf8.count == utf8.count
            && zip(known.utf8, utf8).allSatisfy({ $0 == $1 || ((UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($1) && $0 == $1 | 0x20) }) {
            return known
        }
        return utf8.contains { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) || $0 >= 0x80 } ? name.lowercased() : name
    }

    /// Lowercase names of the fields image servers and CDNs send most.
    private static let commonFieldNames = [
        "date", "server", "content-type", "content-length", "last-modified", "connection", "etag",
        "accept-ranges", "cache-control", "expires", "age", "vary", "keep-alive", "transfer-encoding",
        "x-cache", "via", "access-control-allow-origin", "strict-transport-security", "location", "set-cookie",
    ]

    /// The `ETag` validator, as sent (quotes and `W/` kept).
    public var etag: String? { self[header: "etag"] }

    /// The `Last-Modified` date, as sent.
    public var lastModified: String? { self[header: "last-modified"] }

    /// The body length the `Content-Length` field announces, if any.
    public var expectedContentLength: Int? {
        self[header: "content-length"].flatMap { Int(Self.trimmed($0)) }.flatMap { $0 >= 0 ? $0 : nil }
    }

    /// The media type of `Content-Type` without parameters, lowercased (`image/jpeg`).
    public var mimeType: String? {
        guard let value = self[header: "content-type"] else { return nil }
        let type = value.split(separator: ";", maxSplits: 1).first ?? Substring(value)
        let trimmed = Self.trimmed(type).lowercased()
        return trimmed.isEmpty ? nil : trimmed
    }

    /// `value` without leading and trailing whitespace. Read once or more per download, so it
    /// avoids Foundation's `trimmingCharacters(in:)`, which costs microseconds on Linux.
    private static func trimmed<Text: StringProtocol>(_ value: Text) -> Substring {
        let text = Substring(value)
        guard let first = text.firstIndex(where: { !$0.isWhitespace }) else { return "" }
        let last = text.lastIndex(where: { !$0.isWhitespace })!
        return text[first...last]
    }
}
