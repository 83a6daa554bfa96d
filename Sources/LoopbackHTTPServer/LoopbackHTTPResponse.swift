import Foundation

/// What ``LoopbackHTTPServer`` answers on a route: a status, header fields and a body, sent at the
/// pace the test asks for.
public struct LoopbackHTTPResponse: Sendable {
    /// The status code.
    public var status: Int
    /// Header fields in the order sent. Without an explicit `Content-Length`, a body that
    /// ends is sent with its length; one that never ends is sent chunked.
    public var headers: [(name: String, value: String)]
    /// The body, as the parts to write one after another.
    public var chunks: [Data]
    /// Wait before sending the response head.
    public var headDelay: Duration
    /// Wait before each part of the body.
    public var chunkDelay: Duration
    /// After the parts, keep the connection open and send nothing more, for ever.
    public var neverEnds: Bool
    /// After the parts, close the connection without ending the response: a reset mid-body
    /// when the head announced more bytes than the parts hold.
    public var closesEarly: Bool
    /// Hold the head (before ``headDelay``) until this gate opens; nil: send at once.
    public var gate: LoopbackHTTPGate?

    /// A response from its parts.
    public init(status: Int = 200, headers: [(name: String, value: String)] = [], chunks: [Data] = [],
                headDelay: Duration = .zero, chunkDelay: Duration = .zero, neverEnds: Bool = false,
                closesEarly: Bool = false) {
        self.status = status
        self.headers = headers
        self.chunks = chunks
        self.headDelay = headDelay
        self.chunkDelay = chunkDelay
        self.neverEnds = neverEnds
        self.closesEarly = closesEarly
    }

    /// `data` with status 200, optionally typed, validated (`ETag`, `Last-Modified`) and delayed.
    /// A request whose `If-None-Match` equals `etag`, or whose `If-Modified-Since` equals
    /// `lastModified`, gets `304 Not Modified` without a body.
    public static func bytes(_ data: Data, contentType: String? = nil, etag: String? = nil,
                             lastModified: String? = nil, delay: Duration = .zero) -> LoopbackHTTPResponse {
        var headers: [(name: String, value: String)] = []
        if let contentType { headers.append(("Content-Type", contentType)) }
        if let etag { headers.append(("ETag", etag)) }
        if let lastModified { headers.append(("Last-Modified", lastModified)) }
        return LoopbackHTTPResponse(headers: headers, chunks: [data], headDelay: delay)
    }

    /// `data` split into parts of `chunkSize` bytes, each sent after `delay`.
    public static func slow(_ data: Data, chunkSize: Int, delay: Duration, contentType: String? = nil) -> LoopbackHTTPResponse {
        let size = max(1, chunkSize)
        let chunks = stride(from: 0, to: data.count, by: size).map { data.subdata(in: $0..<min($0 + size, data.count)) }
        let headers: [(name: String, value: String)] = contentType.map { [("Content-Type", $0)] } ?? []
        return LoopbackHTTPResponse(headers: headers, chunks: chunks, chunkDelay: delay)
    }

    /// A status code with a short text body.
    public static func status(_ code: Int) -> LoopbackHTTPResponse {
        LoopbackHTTPResponse(status: code, headers: [("Content-Type", "text/plain")], chunks: [Data("status \(code)".utf8)])
    }

    /// An HTML page, as a captive portal or an error page sends it with status 200.
    public static func html(_ text: String = "<!DOCTYPE html><html><body>Not an image</body></html>") -> LoopbackHTTPResponse {
        LoopbackHTTPResponse(headers: [("Content-Type", "text/html; charset=utf-8")], chunks: [Data(text.utf8)])
    }

    /// A body that starts with `prefix` and then stalls for ever, chunked.
    public static func neverEnding(prefix: Data = Data(count: 16)) -> LoopbackHTTPResponse {
        LoopbackHTTPResponse(chunks: [prefix], neverEnds: true)
    }

    /// The value of header field `name` (any case).
    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Whether `request` carries a validator that matches this response.
    func isNotModified(for request: LoopbackHTTPRequest) -> Bool {
        if let etag = header("etag"), request[header: "if-none-match"] == etag { return true }
        if let date = header("last-modified"), request[header: "if-modified-since"] == date { return true }
        return false
    }
}
