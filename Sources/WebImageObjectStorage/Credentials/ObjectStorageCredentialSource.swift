/// Where object storage credentials come from: static keys (``ObjectStorageCredentials``
/// itself), a shared credentials file's profile, or AWS's services for temporary credentials
/// (STS for a web identity or an assumed role, a container's or an instance's metadata), each
/// asked again as ``RefreshingCredentials`` decides. ``AWSCredentialChain`` picks one as AWS's
/// SDKs do.
public protocol ObjectStorageCredentialSource: Sendable {
    /// Credentials now, asked of the source; throws ``ObjectStorageError/credentialsUnavailable(_:)``
    /// saying why there are none (never a key).
    func credentials() async throws(ObjectStorageError) -> ObjectStorageCredentials
}
