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
        self.init(url: url, statusCode: statusCode, lowercasedHeaders: Self.lowercasedFields(headers.lazy.map { ($0.key, $0.value) }))
    }

    /// A response whose header names are lowercase already.
    init(url: URL, statusCode: Int?, lowercasedHeaders: [String: String]) {
        self.url = url
        self.statusCode = statusCode
        self.headers = lowercasedHeaders
    }

    /// `fields` by lowercase name; a name that comes more than once (in any case) has its
    /// values joined by `", "`, in order.
    static func lowercasedFields(_ fields: some Sequence<(String, String)>) -> [String: String] {
        var lowercased = [String: String](minimumCapacity: fields.underestimatedCount)
        for (name, value) in fields {
            join(value, into: &lowercased[lowercasedFieldName(name)])
        }
        return lowercased
    }

    /// Adds `value` to `field`, which is read and written through one hash lookup.
    private static func join(_ value: String, into field: inout String?) {
        guard field != nil else {
            field = value
            return
        }
        field?.append(", " + value)
    }

    /// The value of header field `name` (any case).
    public subscript(header name: String) -> String? {
        headers[Self.lowercasedFieldName(name)]
    }

    /// `name` in lowercase. Field names are ASCII (RFC 9110): a name servers commonly send comes
    /// back as a shared literal whatever its case, one already lowercase as it is, and only
    /// other names are case-mapped (this runs for every field of every response).
    static func lowercasedFieldName(_ name: String) -> String {
        var name = name
        let common: String? = name.withUTF8 { bytes in
            commonFieldNames.first { known in
                known.bytes.count == bytes.count && known.bytes.withUnsafeBufferPointer { lowercase in
                    (0..<bytes.count).allSatisfy { i in
                        let byte = bytes[i]
                        return byte == lowercase[i] || ((UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) && byte | 0x20 == lowercase[i])
                    }
                }
            }?.name
        }
        if let common { return common }
        return name.utf8.contains { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) || $0 >= 0x80 } ? name.lowercased() : name
    }

    /// Lowercase names of the fields image servers and CDNs send most, with their bytes.
    private static let commonFieldNames: [(name: String, bytes: [UInt8])] = [
        "date", "server", "content-type", "content-length", "last-modified", "connection", "etag",
        "accept-ranges", "cache-control", "expires", "age", "vary", "keep-alive", "transfer-encoding",
        "x-cache", "via", "access-control-allow-origin", "strict-transport-security", "location", "set-cookie",
    ].map { ($0, Array($0.utf8)) }

    /// The `ETag` validator, as sent (quotes and `W/` kept).
    public var etag: String? { headers["etag"] }

    /// The `Last-Modified` date, as sent.
    public var lastModified: String? { headers["last-modified"] }

    /// The body length the `Content-Length` field announces, if any.
    public var expectedContentLength: Int? {
        headers["content-length"].flatMap { Int(Self.trimmed($0)) }.flatMap { $0 >= 0 ? $0 : nil }
    }

    /// The media type of `Content-Type` without parameters, lowercased (`image/jpeg`).
    public var mimeType: String? {
        guard let value = headers["content-type"] else { return nil }
        let type = value.split(separator: ";", maxSplits: 1).first ?? Substring(value)
        let trimmed = Self.trimmed(type).lowercased()
        return trimmed.isEmpty ? nil : trimmed
    }

    /// `value` without the whitespace a field value may have around it (RFC 9110's OWS, plus
    /// CR and LF). Read once or more per download, so it compares bytes rather than Characters
    /// (Foundation's `trimmingCharacters(in:)` costs microseconds on Linux, Unicode properties
    /// hundreds of instructions).
    private static func trimmed<Text: StringProtocol>(_ value: Text) -> Substring {
        let text = Substring(value)
        func isSpace(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n")
        }
        let utf8 = text.utf8
        guard let first = utf8.firstIndex(where: { !isSpace($0) }), let last = utf8.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return Substring(utf8[first...last])
    }
}
