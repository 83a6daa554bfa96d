/// What AWS Signature Version 4 signs of an HTTP request: its method, path and query (decoded:
/// the signer encodes them as they are sent), header fields (`Host` among them) and the
/// SHA-256 of its body in hexadecimal.
public struct SigV4Request: Sendable {
    /// `GET`, `PUT`, …
    public var method: String
    /// The path, decoded (an object key as it is, with its leading `/`).
    public var path: String
    /// The query's names and values, decoded, in any order.
    public var query: [(name: String, value: String)]
    /// The header fields to sign, in any case and order; a name given twice is signed with its
    /// values joined by commas, in order.
    public var headers: [(name: String, value: String)]
    /// The SHA-256 of the body, in lowercase hexadecimal (``SigV4Signer/emptyPayloadHash`` for none).
    public var payloadHash: String

    /// A request from its parts.
    public init(method: String, path: String, query: [(name: String, value: String)] = [],
                headers: [(name: String, value: String)], payloadHash: String = SigV4Signer.emptyPayloadHash) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.payloadHash = payloadHash
    }
}
