/// How much of a download has arrived.
public struct ImageLoadingProgress: Sendable, Hashable {
    /// Bytes of the body received so far.
    public var receivedBytes: Int
    /// The body length from `Content-Length`; `nil` when the server did not say.
    public var expectedBytes: Int?

    /// Progress from its parts.
    public init(receivedBytes: Int, expectedBytes: Int?) {
        self.receivedBytes = receivedBytes
        self.expectedBytes = expectedBytes
    }

    /// `receivedBytes / expectedBytes` in 0…1, or `nil` when the length is unknown.
    public var fractionCompleted: Double? {
        guard let expected = expectedBytes, expected > 0 else { return nil }
        return min(1, Double(receivedBytes) / Double(expected))
    }
}
