import Hummingbird
import NIOCore

extension PreparedResponse {
    /// A header field (HTTPTypes' `HTTPField`, which Hummingbird does not re-export).
    typealias Field = HTTPFields.Element

    /// imgproxy's policy for answers opened as a page: no script, no fetch but `data:` images
    /// and inline style, a sandbox.
    static let contentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox"

    /// Appends the fields that keep a browser from running anything an answer holds, as every
    /// answer with a body carries them: ``contentSecurityPolicy`` (an SVG opened as a page can do
    /// nothing) and `X-Content-Type-Options: nosniff` (no answer is read as another type than it says).
    static func appendContentPolicy(to headers: inout HTTPFields) {
        headers.append(Field(name: .contentSecurityPolicy, value: contentSecurityPolicy))
        headers.append(Field(name: .xContentTypeOptions, value: "nosniff"))
    }

    /// A short `text/plain` answer of `message` and a line end; without a body for `HEAD`.
    static func text(_ status: HTTPResponse.Status, _ message: String, head: Bool) -> PreparedResponse {
        uncached(status, Array((message + "\n").utf8), type: "text/plain; charset=utf-8", head: head)
    }

    /// An answer of `bytes` in `type` that caches must not keep; without a body for `HEAD`.
    static func uncached(_ status: HTTPResponse.Status, _ bytes: [UInt8], type: String, head: Bool) -> PreparedResponse {
        var headers = HTTPFields()
        headers[.contentType] = type
        appendContentPolicy(to: &headers)
        headers[.contentLength] = String(bytes.count)
        headers[.cacheControl] = "no-cache"
        return PreparedResponse(status: status, headerFields: headers, body: head ? nil : ByteBuffer(bytes: bytes))
    }

    /// The answer to `error` for a URL in `form`: its status and its one line.
    static func error(_ error: ProcessingError, form: ProcessingURLForm = .imgproxy, head: Bool) -> PreparedResponse {
        text(HTTPResponse.Status(code: error.status(answering: form)), error.description, head: head)
    }
}
