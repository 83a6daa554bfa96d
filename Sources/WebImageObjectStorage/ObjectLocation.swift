import Foundation

/// An object, or a prefix of objects, in a bucket: what `s3://bucket/key[?version]` names
/// (imgproxy's S3 source form, the query being the object's version ID), checked so that the
/// bucket can stand in a host name and the key in a path.
public struct ObjectLocation: Sendable, Hashable {
    /// The bucket: 3–63 lowercase letters, digits, dots and hyphens, starting and ending with a
    /// letter or digit (S3's rules for names usable in both addressing styles).
    public let bucket: String
    /// The key, decoded, without its leading slash; empty for a whole bucket. At most
    /// ``maxKeyBytes``, without control characters or `.` and `..` segments.
    public let key: String
    /// The version of the object asked for (S3's `versionId`), or nil for the current one.
    public let version: String?

    /// The longest key S3 takes, in UTF-8 bytes.
    public static let maxKeyBytes = 1024

    /// The location `url` names: scheme `s3`, the bucket as host, the key as path (its percent
    /// escapes decoded), the query (decoded), when there is one, as the version. Throws
    /// ``ObjectStorageError/invalidLocation(_:)`` saying why not.
    public init(url: URL) throws(ObjectStorageError) {
        guard url.scheme?.lowercased() == "s3" else { throw .invalidLocation("the scheme is not s3") }
        guard url.user == nil, url.password == nil, url.port == nil else {
            throw .invalidLocation("an s3 address has no user, password or port")
        }
        guard url.fragment == nil else { throw .invalidLocation("an s3 address has no fragment") }
        let version = url.query.map { $0.removingPercentEncoding ?? $0 }
        try self.init(bucket: url.host ?? "", key: String(url.path.drop { $0 == "/" }), version: version)
    }

    /// A location from its parts, checked as ``init(url:)`` checks them.
    public init(bucket: String, key: String, version: String? = nil) throws(ObjectStorageError) {
        guard Self.isValidBucket(bucket) else {
            throw .invalidLocation("a bucket is 3 to 63 lowercase letters, digits, dots and hyphens")
        }
        guard key.utf8.count <= Self.maxKeyBytes else { throw .invalidLocation("the key is over \(Self.maxKeyBytes) bytes") }
        guard !key.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw .invalidLocation("the key holds control characters")
        }
        // A path normaliser on the way (a proxy, the store) would take `a/../b` for `b`, and
        // `../other-bucket/b` for another bucket's object.
        guard !key.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0 == "." || $0 == ".." }) else {
            throw .invalidLocation("the key has a . or .. segment")
        }
        if let version {
            guard (1...Self.maxKeyBytes).contains(version.utf8.count),
                  !version.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                throw .invalidLocation("the version is empty, over \(Self.maxKeyBytes) bytes or holds control characters")
            }
        }
        self.bucket = bucket
        self.key = key
        self.version = version
    }

    /// This location with `name` after its key, of no particular version: a result's object under a prefix.
    public func appending(_ name: String) throws(ObjectStorageError) -> ObjectLocation {
        let separator = key.isEmpty || key.hasSuffix("/") ? "" : "/"
        return try ObjectLocation(bucket: bucket, key: key + separator + name)
    }

    private static func isValidBucket(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (3...63).contains(bytes.count), let first = bytes.first, let last = bytes.last,
              isLetterOrDigit(first), isLetterOrDigit(last) else { return false }
        return bytes.allSatisfy { isLetterOrDigit($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }
            && !name.contains("..")
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
