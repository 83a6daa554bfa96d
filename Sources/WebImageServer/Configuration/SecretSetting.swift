/// The text of a setting that is a credential (an access key, a secret key, a token): kept for
/// the code that signs with it, never shown, so that a configuration printed or logged by
/// mistake carries no credential.
public struct SecretSetting: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The credential itself, for the code that uses it.
    public let text: String

    /// A credential from its text.
    public init(_ text: String) {
        self.text = text
    }

    /// Says that a value is set, never what it is.
    public var description: String { "(hidden)" }
    /// As ``description``.
    public var debugDescription: String { description }
    /// No children: `dump` shows nothing of the text.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
