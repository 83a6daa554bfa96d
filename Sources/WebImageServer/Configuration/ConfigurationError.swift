/// A setting given a value it does not take, in the environment or on the command line.
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the value came from: the variable (`IMGPROXY_QUALITY`) or the flag (`--quality`).
    public let source: String
    /// What is wrong with it, following the source in a sentence ("is outside 1…100").
    public let reason: String

    /// The error for the value `source` gave, wrong as `reason` says.
    public init(source: String, reason: String) {
        self.source = source
        self.reason = reason
    }

    /// `IMGPROXY_QUALITY is outside 1…100`.
    public var description: String { "\(source) \(reason)" }
}
