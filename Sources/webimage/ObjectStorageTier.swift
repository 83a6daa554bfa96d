import Foundation
import Tracing
import WebImage
import WebImageObjectStorage
import WebImageServer

/// The object storage of `webimage serve`: the loader of `s3://bucket/key` sources (through a
/// downloader of its own, with the server's download limits but no source address policy,
/// since the endpoint is the operator's) and the result tier in `--result-storage`.
struct ObjectStorageTier {
    /// Loads `s3://` sources, when `--use-s3` is on.
    let loader: ObjectStorageImageLoader?
    /// Results shared through a bucket, when `--result-storage` names one.
    let results: ObjectStorageImageCache?

    /// The tier `configuration` describes, or nil when it uses no object storage, its credentials
    /// found by ``AWSCredentialChain`` in `environment` and asked for once now, its reads of
    /// `s3://` sources client spans of `tracer` when given. Throws a
    /// ``CommandFailure`` naming the setting that is wrong, or why there are no credentials
    /// (never a credential).
    init?(_ configuration: ImageServer.Configuration, environment: [String: String], tracer: (any Tracer)?) async throws {
        let settings = configuration.objectStorage
        guard settings.useS3 || settings.resultStorage != nil else { return nil }
        let chain = Self.credentialChain(configuration, environment: environment)
        let credentials = chain.source
        do {
            _ = try await credentials.credentials()
        } catch {
            throw CommandFailure("object storage needs credentials, and none came from \(chain.origin): \(error); give AWS_ACCESS_KEY_ID "
                + "and AWS_SECRET_ACCESS_KEY (or --s3-access-key-id and --s3-secret-access-key), a profile, or a role")
        }
        let endpoint: ObjectStorageEndpoint
        do {
            endpoint = try ObjectStorageEndpoint(url: configuration.objectStorage.s3Endpoint, region: configuration.objectStorage.s3Region,
                                                 usesPathStyle: configuration.objectStorage.s3PathStyle)
        } catch {
            throw CommandFailure("--s3-endpoint: \(error)")
        }
        loader = configuration.objectStorage.useS3 ? ObjectStorageImageLoader(
            downloader: HTTPImageDownloader(configuration: HTTPImageDownloader.Configuration(
                downloadTimeout: configuration.sources.downloadTimeout, wholeDownloadTimeout: configuration.sources.downloadTimeout,
                maxBytes: configuration.limits.maxSrcFileSize, maxRedirects: 0), tracer: tracer),
            endpoint: endpoint, credentials: credentials) : nil
        guard let storage = configuration.objectStorage.resultStorage else {
            results = nil
            return
        }
        let prefix: ObjectLocation
        do {
            guard let url = URL(string: storage) else { throw ObjectStorageError.invalidLocation("it is not a URL") }
            prefix = try ObjectLocation(url: url)
            guard prefix.version == nil else { throw ObjectStorageError.invalidLocation("a result storage prefix has no version") }
        } catch {
            throw CommandFailure("--result-storage: \(error)")
        }
        results = ObjectStorageImageCache(client: ObjectStorageClient(endpoint: endpoint, credentials: credentials), prefix: prefix)
    }

    /// The AWS credentials of `configuration` and `environment`: the keys given (the
    /// `AWS_ACCESS_KEY_ID` and `AWS_SECRET_ACCESS_KEY` settings), else the rest of the chain, the
    /// S3 role assumed when one is named and `assumesS3Role`.
    static func credentialChain(_ configuration: ImageServer.Configuration, environment: [String: String],
                                assumesS3Role: Bool = true) -> AWSCredentialChain {
        let settings = configuration.objectStorage
        var keys: ObjectStorageCredentials?
        if let keyID = settings.s3AccessKeyID?.text, let secret = settings.s3SecretAccessKey?.text, !keyID.isEmpty, !secret.isEmpty {
            keys = ObjectStorageCredentials(accessKeyID: keyID, secretAccessKey: secret, sessionToken: settings.s3SessionToken?.text)
        }
        return AWSCredentialChain(environment: environment, home: FileManager.default.homeDirectoryForCurrentUser.path,
                                  keys: keys, region: settings.s3Region, role: assumesS3Role ? settings.s3AssumeRoleARN : nil,
                                  externalID: settings.s3AssumeRoleExternalID)
    }

    /// Lets the queued result writes end, then closes the connections.
    func shutdown() async {
        try? await loader?.downloader.shutdown()
        await results?.waitForWrites()
        await results?.client.shutdown()
    }
}
