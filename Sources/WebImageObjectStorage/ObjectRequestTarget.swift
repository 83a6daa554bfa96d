import Foundation

/// Where the request for one object goes, as an endpoint spells it: the URL sent, and the
/// parts the signer signs (the `Host` field, the path and the query, decoded).
public struct ObjectRequestTarget: Sendable {
    /// The URL sent: path and query encoded as the signer encodes them.
    public let url: URL
    /// The `Host` field, with the port when the endpoint gives one.
    public let host: String
    /// The path, decoded.
    public let path: String
    /// The query (`versionId` for a version), decoded.
    public let query: [(name: String, value: String)]

    /// The request of `method` for this target with `headers` (`Host` first) and `payloadHash`, as the signer takes it.
    public func signingRequest(method: String, headers: [(name: String, value: String)] = [],
                               payloadHash: String = SigV4Signer.emptyPayloadHash) -> SigV4Request {
        SigV4Request(method: method, path: path, query: query, headers: [("Host", host)] + headers, payloadHash: payloadHash)
    }
}
