import Foundation

/// An object as a `GET` answered it: its bytes and what the store keeps with them.
public struct StoredObject: Sendable {
    /// The bytes.
    public let data: Data
    /// Its `Content-Type`.
    public let contentType: String?
    /// Its `ETag`, quoted as sent: the MD5 of the bytes for an object written in one `PUT`.
    public let etag: String?
    /// Its user metadata (`x-amz-meta-NAME`), by lowercase name without the prefix.
    public let metadata: [String: String]
}
