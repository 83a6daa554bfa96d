import Foundation

/// Where object storage credentials are found, in the order AWS's SDKs look (their default
/// chain), from what the environment names:
/// 1. keys given (`AWS_ACCESS_KEY_ID` and `AWS_SECRET_ACCESS_KEY`, or the flags);
/// 2. a web identity: `AWS_WEB_IDENTITY_TOKEN_FILE` with `AWS_ROLE_ARN` (and
///    `AWS_ROLE_SESSION_NAME`), exchanged at STS (EKS's IAM roles for service accounts);
/// 3. the profile of the shared files (``SharedCredentialsFile``), when it holds keys;
/// 4. a container's credentials endpoint (`AWS_CONTAINER_CREDENTIALS_FULL_URI` or
///    `_RELATIVE_URI`: ECS, EKS Pod Identity);
/// 5. the instance metadata service (IMDSv2; `AWS_EC2_METADATA_SERVICE_ENDPOINT`, off with
///    `AWS_EC2_METADATA_DISABLED=true`).
///
/// With a role to assume (imgproxy's `IMGPROXY_S3_ASSUME_ROLE_ARN`), what was found signs an
/// STS `AssumeRole` for it. Temporary credentials are kept by ``RefreshingCredentials`` and
/// asked for again before they expire. STS is `AWS_ENDPOINT_URL_STS` (or `AWS_ENDPOINT_URL`),
/// else `https://sts.REGION.amazonaws.com`.
public struct AWSCredentialChain: Sendable {
    /// The credentials found, refreshed as they need.
    public let source: any ObjectStorageCredentialSource
    /// Which link of the chain gave them, in a few words (`a web identity`), for a log line.
    public let origin: String

    /// The chain of `environment` (the process's, for `webimage serve`), with `keys` given and
    /// `home` for the shared files, assuming `role` (with `externalID`) when given; STS signed
    /// for `region` unless `AWS_REGION` names another; `now` the clock expiries are judged by.
    public init(environment: [String: String], home: String, keys: ObjectStorageCredentials?, region: String,
                role: String? = nil, externalID: String? = nil, now: @escaping @Sendable () -> Date = Date.init) {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        let stsRegion = value("AWS_REGION") ?? value("AWS_DEFAULT_REGION") ?? region
        let stsEndpoint = (value("AWS_ENDPOINT_URL_STS") ?? value("AWS_ENDPOINT_URL")).flatMap(URL.init(string:))
            ?? URL(string: "https://sts.\(stsRegion).amazonaws.com")
            // A region no host can hold: STS's global endpoint, whose signature for it then fails aloud.
            ?? URL(string: "https://sts.amazonaws.com")!
        let sessionName = value("AWS_ROLE_SESSION_NAME") ?? "webimage-\(Int(now().timeIntervalSince1970))"
        let shared = SharedCredentialsFile(environment: environment, home: home)
        var found: any ObjectStorageCredentialSource
        var origin: String
        if let keys {
            (found, origin) = (keys, "the keys given")
        } else if let tokenFile = value("AWS_WEB_IDENTITY_TOKEN_FILE"), let roleARN = value("AWS_ROLE_ARN") {
            found = STSCredentials(endpoint: stsEndpoint, region: stsRegion,
                                   grant: .webIdentity(tokenFile: tokenFile, role: roleARN, sessionName: sessionName), now: now)
            origin = "a web identity (AWS_WEB_IDENTITY_TOKEN_FILE)"
        } else if shared.hasKeys {
            (found, origin) = (shared, "the profile \(shared.profile) of the shared files")
        } else if let url = value("AWS_CONTAINER_CREDENTIALS_FULL_URI")
                    ?? value("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI").map({ "http://169.254.170.2" + $0 }) {
            found = MetadataCredentials(.container(url: url, authorization: value("AWS_CONTAINER_AUTHORIZATION_TOKEN"),
                                                   authorizationFile: value("AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE")))
            origin = "the container credentials endpoint"
        } else if value("AWS_EC2_METADATA_DISABLED")?.lowercased() != "true" {
            found = MetadataCredentials(.instance(endpoint: value("AWS_EC2_METADATA_SERVICE_ENDPOINT") ?? "http://169.254.169.254"))
            origin = "the instance metadata service"
        } else {
            found = UnavailableCredentials()
            origin = "any link of the chain"
        }
        if let role {
            found = STSCredentials(endpoint: stsEndpoint, region: stsRegion,
                                   grant: .assumeRole(role: role, externalID: externalID, sessionName: sessionName,
                                                      base: RefreshingCredentials(found, now: now)), now: now)
            origin = "the role \(role), assumed with \(origin)"
        }
        source = found is ObjectStorageCredentials ? found : RefreshingCredentials(found, now: now)
        self.origin = origin
    }
}

/// No credentials anywhere: each request fails saying so.
struct UnavailableCredentials: ObjectStorageCredentialSource {
    func credentials() async throws(ObjectStorageError) -> ObjectStorageCredentials {
        throw .credentialsUnavailable("no keys, web identity, profile or container endpoint is given, and the instance metadata service is disabled")
    }
}
