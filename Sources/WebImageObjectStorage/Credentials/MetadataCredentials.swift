import Foundation

/// Temporary credentials from the metadata service of where the server runs: a container's
/// (ECS, EKS Pod Identity: `AWS_CONTAINER_CREDENTIALS_FULL_URI`, or
/// `AWS_CONTAINER_CREDENTIALS_RELATIVE_URI` under `http://169.254.170.2`, with the
/// `Authorization` of `AWS_CONTAINER_AUTHORIZATION_TOKEN` or the file
/// `AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE` names) or an EC2 instance's (IMDSv2: a session
/// token first, then the role's credentials). Only this source asks these addresses: a source
/// URL naming them is refused by the source policy as any link-local one is.
public struct MetadataCredentials: ObjectStorageCredentialSource {
    /// Which service is asked.
    public enum Service: Sendable {
        /// A container's credentials at `url`, with `authorization` (or the file holding it).
        case container(url: String, authorization: String?, authorizationFile: String?)
        /// The instance metadata service at `endpoint` (`http://169.254.169.254` by default).
        case instance(endpoint: String)
    }

    /// The service asked.
    public let service: Service

    /// A source asking `service`.
    public init(_ service: Service) {
        self.service = service
    }

    /// The service's answer now.
    public func credentials() async throws(ObjectStorageError) -> ObjectStorageCredentials {
        switch service {
        case .container(let url, let authorization, let authorizationFile):
            var token = authorization
            if let authorizationFile {
                guard let data = FileManager.default.contents(atPath: authorizationFile) else {
                    throw .credentialsUnavailable("the container authorization token file \(authorizationFile) cannot be read")
                }
                token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            }
            let body = try await CredentialsRequest.body(.GET, url, headers: token.map { [("Authorization", $0)] } ?? [],
                                                         service: "the container credentials endpoint")
            return try CredentialsRequest.credentials(fromJSON: body, service: "the container credentials endpoint")
        case .instance(let endpoint):
            let base = endpoint.hasSuffix("/") ? String(endpoint.dropLast()) : endpoint
            let name = "the instance metadata service"
            let session = try await CredentialsRequest.body(.PUT, base + "/latest/api/token",
                                                            headers: [("X-aws-ec2-metadata-token-ttl-seconds", "21600")], service: name)
            let header = [("X-aws-ec2-metadata-token", String(decoding: session, as: UTF8.self))]
            let roles = try await CredentialsRequest.body(.GET, base + "/latest/meta-data/iam/security-credentials/", headers: header,
                                                          service: name)
            guard let role = String(decoding: roles, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init),
                  !role.isEmpty, role.allSatisfy({ $0.isLetter || $0.isNumber || "+=,.@_-".contains($0) }) else {
                throw .credentialsUnavailable("\(name) names no instance role")
            }
            let body = try await CredentialsRequest.body(.GET, base + "/latest/meta-data/iam/security-credentials/" + role,
                                                         headers: header, service: name)
            return try CredentialsRequest.credentials(fromJSON: body, service: name)
        }
    }
}
