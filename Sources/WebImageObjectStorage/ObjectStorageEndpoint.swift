import Foundation

/// Where a bucket's objects are asked for, and how the bucket is named in the request: in the
/// path (`https://endpoint/bucket/key`, MinIO's and Ceph RGW's default, and imgproxy's) or in
/// the host (`https://bucket.endpoint/key`, virtual-host style). Without an endpoint, AWS's
/// regional one, `s3.REGION.amazonaws.com`.
public struct ObjectStorageEndpoint: Sendable, Hashable {
    /// `http` or `https`.
    public let scheme: String
    /// The endpoint's host, without the bucket.
    public let host: String
    /// The port, when the URL gives one.
    public let port: Int?
    /// The region requests are signed for.
    public let region: String
    /// Whether the bucket goes in the path rather than the host.
    public let usesPathStyle: Bool

    /// The endpoint `url` names (`https://host[:port]`; a URL without scheme is taken as
    /// `https`), or AWS's for `region` when nil. Throws ``ObjectStorageError/invalidEndpoint(_:)``
    /// for a URL that is not `http(s)` with a host and nothing after it.
    public init(url: String?, region: String, usesPathStyle: Bool) throws(ObjectStorageError) {
        self.region = region
        self.usesPathStyle = usesPathStyle
        guard let url else {
            scheme = "https"
            host = "s3.\(region).amazonaws.com"
            port = nil
            return
        }
        let text = url.contains("://") ? url : "https://" + url
        guard let parsed = URLComponents(string: text), let scheme = parsed.scheme?.lowercased(),
              scheme == "http" || scheme == "https" else {
            throw .invalidEndpoint("it must be an http or https URL")
        }
        guard let host = parsed.host, !host.isEmpty else { throw .invalidEndpoint("it has no host") }
        guard parsed.path.isEmpty || parsed.path == "/", parsed.query == nil, parsed.fragment == nil, parsed.user == nil else {
            throw .invalidEndpoint("it must be only a scheme, a host and a port")
        }
        self.scheme = scheme
        self.host = host
        port = parsed.port
    }

    /// The request target of the object at `location`: its URL, the `Host` field it is sent (and
    /// signed) with, its path and its query (the version, when there is one).
    public func target(for location: ObjectLocation) throws(ObjectStorageError) -> ObjectRequestTarget {
        let literal = host.contains(":") ? "[\(host)]" : host
        let hostName = usesPathStyle ? literal : "\(location.bucket).\(literal)"
        let hostField = port.map { "\(hostName):\($0)" } ?? hostName
        let path = usesPathStyle ? "/\(location.bucket)/\(location.key)" : "/\(location.key)"
        let query = location.version.map { [(name: "versionId", value: $0)] } ?? []
        let queryText = query.isEmpty ? "" : "?" + query.map { "\($0.name)=\(SigV4Encoding.encode($0.value))" }.joined(separator: "&")
        guard let url = URL(string: "\(scheme)://\(hostField)\(SigV4Encoding.encodePath(path))\(queryText)") else {
            throw .invalidLocation("it makes no URL with this endpoint")
        }
        return ObjectRequestTarget(url: url, host: hostField, path: path, query: query)
    }
}
