/// What a result was made from and to: its source's bytes and stored size, and its own size,
/// which imgproxy's debug headers report (`X-Origin-Content-Length`, `X-Origin-Width`,
/// `X-Origin-Height`, `X-Result-Width`, `X-Result-Height`).
public struct ResultDimensions: Sendable, Hashable {
    /// The source's bytes, as downloaded or read.
    public var sourceBytes: Int
    /// The source's size as its header declares it, before any turn or shrink.
    public var sourceWidth: Int, sourceHeight: Int
    /// The result's size, as encoded.
    public var resultWidth: Int, resultHeight: Int

    /// Dimensions from their parts.
    public init(sourceBytes: Int, sourceWidth: Int, sourceHeight: Int, resultWidth: Int, resultHeight: Int) {
        self.sourceBytes = sourceBytes
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.resultWidth = resultWidth
        self.resultHeight = resultHeight
    }
}
