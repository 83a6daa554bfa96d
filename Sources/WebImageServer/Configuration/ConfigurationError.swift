/// A setting given a value it does not take, in the environment or on the command line.
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the value came from: the variable (`IMGPROXY_QUALITY`) or the flag (`--quality`).
    public let source: String
    /// What is wrong with it, following the source in a sentence ("is outside 1…100").
    public let reason: String
    /// Whether the command line itself is wrong (a flag that is no setting, a value missing),
    /// rather than a value: a command answers it with its usage.
    public let isUsage: Bool

    /// The error for the value `source` gave, wrong as `reason` says; `isUsage` when the
    /// command line's shape is wrong rather than a value.
    public init(source: String, reason: String, isUsage: Bool = false) {
        self.source = source
        self.reason = reason
        self.isUsage = isUsage
    }

    /// `IMGPROXY_QUALITY is outside 1…100`.
    public var description: String { "\(source) \(reason)" }
}
