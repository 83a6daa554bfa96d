import Hummingbird

/// Cross-origin reads of the server's answers, as imgproxy's `IMGPROXY_ALLOW_ORIGIN` allows
/// them: every answer names the allowed origin and methods, and a preflight (`OPTIONS`) is
/// answered at once, as a CORS-aware server answers one, rather than refused as a method the
/// server does not serve.
struct CORSPolicy: Sendable {
    /// A header field (HTTPTypes' `HTTPField`, which Hummingbird does not re-export).
    private typealias Field = HTTPFields.Element

    /// The origin allowed to read answers (``ServerConfiguration/ListeningSettings/allowOrigin``): `*` or one origin.
    let allowOrigin: String

    /// The methods answers advertise, as imgproxy spells them.
    static let methods = "GET, OPTIONS"
    /// How long a browser may keep a preflight's answer, in seconds (a day; browsers cap it lower).
    static let maxAge = 86_400
    /// The request fields a script may send cross-origin that the server reads and that are
    /// not CORS-safelisted: revalidation and the legacy client hints (`Sec-CH-*` are the
    /// browser's own, which no script sets).
    static let headers = "If-None-Match, If-Modified-Since, DPR, Width"

    /// The policy allowing `allowOrigin`.
    init(allowOrigin: String) {
        self.allowOrigin = allowOrigin
    }

    /// `answer` with the allowed origin and methods.
    func applied(to answer: PreparedResponse) -> PreparedResponse {
        var answer = answer
        answer.head.headerFields.append(Field(name: .accessControlAllowOrigin, value: allowOrigin))
        answer.head.headerFields.append(Field(name: .accessControlAllowMethods, value: Self.methods))
        return answer
    }

    /// The answer to an `OPTIONS` request: 204 with the allowed origin, methods and fields,
    /// how long to keep it and, where one origin is allowed rather than any, `Vary: Origin`.
    func preflightAnswer() -> PreparedResponse {
        var headers = HTTPFields()
        headers.append(Field(name: .accessControlAllowHeaders, value: Self.headers))
        headers.append(Field(name: .accessControlMaxAge, value: String(Self.maxAge)))
        if allowOrigin != "*" { headers.append(Field(name: .vary, value: "Origin")) }
        headers.append(Field(name: .contentLength, value: "0"))
        return applied(to: PreparedResponse(status: .noContent, headerFields: headers))
    }
}
