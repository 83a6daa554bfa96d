/// The digest a source must have (imgproxy's `hashsum` option, for processing and `/info`
/// URLs alike): a source whose digest differs is answered 422.
public struct RequiredHashsum: Sendable, Hashable {
    /// The kind of digest.
    public var kind: SourceHashsum
    /// The expected digest, lowercase hex.
    public var hex: String

    /// A requirement of `hex` (already checked to be `kind`'s length of lowercase hex digits).
    public init(kind: SourceHashsum, hex: String) {
        self.kind = kind
        self.hex = hex
    }

    /// The cache key's part.
    var canonical: String { "hs:\(kind.rawValue):\(hex)" }
}
