import HTTPTypes
import Tracing

/// Sets what a ``RequestTracer`` span says of its work: attributes and failure; does nothing
/// when there is no span (no tracer).
struct SpanRecorder {
    /// The span, or nil without a tracer.
    let span: (any Span)?

    /// Sets the attribute `key` (an OpenTelemetry semantic convention's name where there is one).
    func set(_ key: String, _ value: String) {
        span?.attributes[key] = value
    }

    /// Sets the attribute `key` to a number.
    func set(_ key: String, _ value: Int) {
        span?.attributes[key] = Int64(value)
    }

    /// Sets a server span's request attributes: the method, the `path` shown (the caller's
    /// choice: the log's, without the signature) and the `Host` asked for, by OpenTelemetry's
    /// HTTP conventions.
    func describe(_ request: HTTPRequest, path: String) {
        guard span != nil else { return }
        set("http.request.method", request.method.rawValue)
        set("url.path", path)
        if let host = request.authority { set("server.address", host) }
    }

    /// Sets a server span's answer: its status, which fails the span from 500 on, as
    /// OpenTelemetry's HTTP conventions have it (a 4xx is the client's error, not the server's).
    func answered(_ status: Int) {
        set("http.response.status_code", status)
        if status >= 500 { span?.setStatus(SpanStatus(code: .error)) }
    }

    /// Marks the span failed by `error`.
    func fail(_ error: any Error) {
        span?.recordError(error)
        span?.setStatus(SpanStatus(code: .error))
    }
}
