import Foundation

/// The keys requests to object storage are signed with (AWS's access key ID, secret access
/// key and, for temporary credentials, session token and expiry). As an
/// ``ObjectStorageCredentialSource`` they are static: they are themselves, always.
///
/// Never shown: its description, debug description and mirror name no key, so that a
/// configuration logged or printed by mistake carries no credential.
public struct ObjectStorageCredentials: ObjectStorageCredentialSource, Equatable, CustomStringConvertible,
    CustomDebugStringConvertible, CustomReflectable {
    /// The access key ID, sent in every `Authorization` field (not secret, but not shown either).
    let accessKeyID: String
    /// The secret the signing key is derived from; never sent.
    let secretAccessKey: String
    /// The session token of temporary credentials, sent as `X-Amz-Security-Token`.
    let sessionToken: String?
    /// When temporary credentials stop working, or nil for keys that do not expire.
    public let expiration: Date?

    /// Credentials from their parts; an empty session token counts as none.
    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil, expiration: Date? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken?.isEmpty == false ? sessionToken : nil
        self.expiration = expiration
    }

    /// Says that there are credentials, never what they are.
    public var description: String { "object storage credentials (hidden)" }
    /// As ``description``.
    public var debugDescription: String { description }
    /// No children: `dump` shows no key.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }

    /// Themselves.
    public func credentials() async throws(ObjectStorageError) -> ObjectStorageCredentials { self }
}
