import Foundation
import WebImageObjectStorage
import WebImageServer

/// The environment `webimage serve` reads its settings from: the process's, with the
/// variables imgproxy loads from AWS at start laid over it, as it does — a Secrets Manager
/// secret of `.env` text (`IMGPROXY_ENV_AWS_SECRET_ID`), then a Systems Manager path's
/// parameters (`IMGPROXY_ENV_AWS_SSM_PARAMETERS_PATH`). The `.env` file of
/// `IMGPROXY_ENV_LOCAL_FILE_PATH` comes after them (read by `ConfigurationReading`).
/// Credentials come from ``AWSCredentialChain``.
enum AWSEnvironment {
    /// `environment` with the AWS stores `configuration` names laid over it, signed with the
    /// credentials object storage would use (but its S3 role, as imgproxy's); throws a ``CommandFailure`` naming the setting
    /// whose store failed (never a secret).
    static func loaded(over environment: [String: String], for configuration: ImageServer.Configuration) async throws -> [String: String] {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        let stores = configuration.environmentStores
        let sdkRegion = value("AWS_REGION") ?? value("AWS_DEFAULT_REGION") ?? AWSConfigurationStores.defaultRegion
        let credentials = ObjectStorageTier.credentialChain(configuration, environment: environment, assumesS3Role: false).source
        var loaded = environment
        if let secretID = stores.secretID {
            do {
                let text = try await AWSConfigurationStores.secretText(
                    id: secretID, versionID: stores.secretVersionID, versionStage: stores.secretVersionStage,
                    region: stores.secretRegion ?? sdkRegion, environment: environment, credentials: credentials)
                if let text { loaded.merge(try EnvironmentFile(text: text, path: "the secret \(secretID)").variables) { _, stored in stored } }
            } catch {
                throw CommandFailure("IMGPROXY_ENV_AWS_SECRET_ID: \(error)")
            }
        }
        if let parametersPath = stores.parametersPath {
            do {
                let parameters = try await AWSConfigurationStores.parameters(
                    path: parametersPath, region: stores.parametersRegion ?? sdkRegion,
                    environment: environment, credentials: credentials)
                loaded.merge(parameters) { _, stored in stored }
            } catch {
                throw CommandFailure("IMGPROXY_ENV_AWS_SSM_PARAMETERS_PATH: \(error)")
            }
        }
        return loaded
    }
}
