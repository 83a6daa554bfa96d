/// Why the transport failed (``WebImageError/network(_:)``): what happened, as a typed
/// ``Reason`` that reads as a sentence, and the underlying error's own text for logs.
///
/// The description is the reason alone ("connection refused by example.com:443"), so it can be
/// shown to a person; ``cause`` keeps what AsyncHTTPClient, NIO, BoringSSL or the file system
/// said, for a verbose mode or a bug report.
public struct NetworkFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// What happened.
    public var reason: Reason
    /// The underlying error as the library that threw it describes it, with source-file paths
    /// removed; nil when there was none.
    public var cause: String?

    /// A failure for `reason`; `cause` is cleaned of source-file paths (BoringSSL names the
    /// file and line of its check, which say nothing to a user and leak build folders).
    public init(_ reason: Reason, cause: String? = nil) {
        self.reason = reason
        self.cause = cause.map(Self.withoutSourcePaths)
    }

    /// The reason, as a sentence without a capital or a full stop.
    public var description: String { reason.description }

    /// `text` without ` at /some/file.cc:123` locations.
    static func withoutSourcePaths(_ text: String) -> String {
        text.replacing(/\ at \/[^\s:\]\)]+:\d+/, with: "")
    }
}
