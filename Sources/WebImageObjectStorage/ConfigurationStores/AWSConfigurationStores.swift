import Foundation

/// Settings kept in AWS rather than in the environment, as imgproxy reads them at start: a
/// Secrets Manager secret holding `.env` text (`IMGPROXY_ENV_AWS_SECRET_ID`) and the
/// parameters under a Systems Manager path (`IMGPROXY_ENV_AWS_SSM_PARAMETERS_PATH`). Signed
/// with the credentials ``AWSCredentialChain`` finds; each service at
/// `AWS_ENDPOINT_URL_SECRETS_MANAGER`/`_SSM` or `AWS_ENDPOINT_URL` when set.
public enum AWSConfigurationStores {
    /// imgproxy's region when neither its variable nor `AWS_REGION` names one.
    public static let defaultRegion = "us-west-1"

    /// The text of the secret `id` (at `versionID`, else `versionStage`, else the current one),
    /// in `region`; nil when it holds binary data rather than text.
    public static func secretText(id: String, versionID: String? = nil, versionStage: String? = nil, region: String,
                                  environment: [String: String], credentials: any ObjectStorageCredentialSource)
        async throws(ObjectStorageError) -> String? {
        struct Request: Encodable {
            let SecretId: String
            let VersionId: String?
            let VersionStage: String?
        }
        struct Answer: Decodable { let SecretString: String? }
        let call = AWSJSONCall(endpoint: try AWSJSONCall.endpoint(of: "SECRETS_MANAGER", host: "secretsmanager", region: region, environment: environment),
                               region: region, service: "secretsmanager", serviceName: "AWS Secrets Manager", credentials: credentials)
        let request = Request(SecretId: id, VersionId: versionID, VersionStage: versionID == nil ? versionStage : nil)
        return try await call.send("secretsmanager.GetSecretValue", request, answer: Answer.self).SecretString
    }

    /// The text parameters under `path` in `region`, decrypted, by the variable each names: its
    /// name after the path, `/` turned to `_` (`/imgproxy/IMGPROXY_QUALITY` under `/imgproxy`
    /// is `IMGPROXY_QUALITY`), every page read.
    public static func parameters(path: String, region: String, environment: [String: String],
                                  credentials: any ObjectStorageCredentialSource) async throws(ObjectStorageError) -> [String: String] {
        struct Request: Encodable {
            let Path: String
            let WithDecryption = true
            let NextToken: String?
        }
        struct Parameter: Decodable {
            let Name: String?
            let Value: String?
            let DataType: String?
        }
        struct Answer: Decodable {
            let Parameters: [Parameter]?
            let NextToken: String?
        }
        let call = AWSJSONCall(endpoint: try AWSJSONCall.endpoint(of: "SSM", host: "ssm", region: region, environment: environment),
                               region: region, service: "ssm", serviceName: "AWS Systems Manager", credentials: credentials)
        var variables: [String: String] = [:], token: String?, pages = 0
        repeat {
            let answer = try await call.send("AmazonSSM.GetParametersByPath", Request(Path: path, NextToken: token), answer: Answer.self)
            for parameter in answer.Parameters ?? [] {
                guard let name = parameter.Name, let value = parameter.Value, (parameter.DataType ?? "text") == "text" else { continue }
                let relative = name.hasPrefix(path) ? String(name.dropFirst(path.count)) : name
                variables[String(relative.drop { $0 == "/" }).replacingOccurrences(of: "/", with: "_")] = value
            }
            token = answer.NextToken
            pages += 1
        } while token != nil && pages < 1000
        return variables
    }
}
