/// Why object storage could not be used: a setting or source it does not take, or an answer
/// that is not what was asked. The descriptions name no credential.
public enum ObjectStorageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The endpoint setting is not an `http` or `https` URL with a host; why.
    case invalidEndpoint(String)
    /// An `s3://bucket/key` address (a source, the result storage) that cannot be read; why.
    case invalidLocation(String)
    /// The store answered with an unexpected HTTP status.
    case unexpectedStatus(Int)
    /// The object is larger than the limit, in bytes.
    case tooLarge(limit: Int)
    /// The store could not be reached or did not answer in time; what happened.
    case unreachable(String)
    /// No credentials could be had from their source (a profile missing, STS or the metadata
    /// service refusing or silent); why, never a key.
    case credentialsUnavailable(String)
    /// The bucket is not one `IMGPROXY_S3_ALLOWED_BUCKETS` allows, or one `_DENIED_BUCKETS` names.
    case bucketNotAllowed(String)
    /// An AWS service other than storage (Secrets Manager, Systems Manager) refused a call or
    /// answered what it does not answer; which, and AWS's error type.
    case serviceRefused(String)

    /// One line saying what went wrong.
    public var description: String {
        switch self {
        case .invalidEndpoint(let why): "invalid object storage endpoint: \(why)"
        case .invalidLocation(let why): "invalid object storage address: \(why)"
        case .unexpectedStatus(let status): "the object storage answered with HTTP status \(status)"
        case .tooLarge(let limit): "the object is larger than \(limit) bytes"
        case .unreachable(let why): "the object storage did not answer: \(why)"
        case .credentialsUnavailable(let why): "no object storage credentials: \(why)"
        case .bucketNotAllowed(let bucket): "the bucket \(bucket) is not allowed"
        case .serviceRefused(let why): why
        }
    }
}
