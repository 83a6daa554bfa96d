import Foundation

/// Temporary credentials from AWS STS: for a web identity (Kubernetes' service account token,
/// `AssumeRoleWithWebIdentity`, unsigned) or for a role assumed with other credentials
/// (`AssumeRole`, signed with them; imgproxy's `IMGPROXY_S3_ASSUME_ROLE_ARN`), through STS's
/// query API posted as a form (`Action=…&Version=2011-06-15`, as AWS's SDKs send it), its XML
/// answer read for the keys and expiry.
public struct STSCredentials: ObjectStorageCredentialSource {
    /// What is exchanged for the credentials.
    public enum Grant: Sendable {
        /// The token in the file at `tokenFile` (read again each time: it is rotated), for `role`.
        case webIdentity(tokenFile: String, role: String, sessionName: String)
        /// The `role`, with `externalID` when its trust policy asks for one, assumed with the
        /// credentials of `base`.
        case assumeRole(role: String, externalID: String?, sessionName: String, base: any ObjectStorageCredentialSource)
    }

    /// STS's URL (`https://sts.REGION.amazonaws.com`, or `AWS_ENDPOINT_URL_STS`).
    public let endpoint: URL
    /// The region `AssumeRole` is signed for.
    public let region: String
    /// What is exchanged.
    public let grant: Grant
    private let now: @Sendable () -> Date

    /// A source asking `endpoint` for `grant`, signing for `region` at `now`.
    public init(endpoint: URL, region: String, grant: Grant, now: @escaping @Sendable () -> Date = Date.init) {
        self.endpoint = endpoint
        self.region = region
        self.grant = grant
        self.now = now
    }

    /// STS's answer now.
    public func credentials() async throws(ObjectStorageError) -> ObjectStorageCredentials {
        var query: [(name: String, value: String)] = [("Version", "2011-06-15")]
        var headers: [(String, String)] = [("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")]
        let host = endpoint.host.map { host in endpoint.port.map { "\(host):\($0)" } ?? host } ?? ""
        switch grant {
        case .webIdentity(let tokenFile, let role, let sessionName):
            guard let data = FileManager.default.contents(atPath: tokenFile),
                  let token = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines), !token.isEmpty else {
                throw .credentialsUnavailable("the web identity token file \(tokenFile) cannot be read")
            }
            query += [("Action", "AssumeRoleWithWebIdentity"), ("RoleArn", role), ("RoleSessionName", sessionName),
                      ("WebIdentityToken", token)]
        case .assumeRole(let role, let externalID, let sessionName, let base):
            query += [("Action", "AssumeRole"), ("RoleArn", role), ("RoleSessionName", sessionName)]
            if let externalID { query.append(("ExternalId", externalID)) }
        }
        let form = Data(query.map { SigV4Encoding.encode($0.name) + "=" + SigV4Encoding.encode($0.value) }.joined(separator: "&").utf8)
        if case .assumeRole(_, _, _, let base) = grant {
            let signer = SigV4Signer(credentials: try await base.credentials(), region: region, service: "sts", signsPayloadHash: false)
            let request = SigV4Request(method: "POST", path: "/", headers: [("Host", host)] + headers.map { (name: $0.0, value: $0.1) },
                                       payloadHash: SigV4Signer.payloadHash(of: form))
            headers += signer.signingHeaders(for: request, at: now()).map { ($0.name, $0.value) }
        }
        let body = try await CredentialsRequest.body(.POST, endpoint.absoluteString, headers: headers, body: form, service: "STS")
        return try Self.credentials(fromXML: String(decoding: body, as: UTF8.self))
    }

    /// The `Credentials` of an STS answer.
    static func credentials(fromXML xml: String) throws(ObjectStorageError) -> ObjectStorageCredentials {
        func element(_ name: String) -> String? {
            guard let open = xml.range(of: "<\(name)>"), let close = xml.range(of: "</\(name)>", range: open.upperBound..<xml.endIndex)
            else { return nil }
            return String(xml[open.upperBound..<close.lowerBound]).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        guard let id = element("AccessKeyId"), let secret = element("SecretAccessKey") else {
            throw .credentialsUnavailable("STS answered no credentials")
        }
        return ObjectStorageCredentials(accessKeyID: id, secretAccessKey: secret, sessionToken: element("SessionToken"),
                                        expiration: element("Expiration").flatMap(CredentialsRequest.date(iso8601:)))
    }
}
