/// A size in whole pixels.
public struct PixelSize: Sendable, Hashable, CustomStringConvertible {
    /// Columns of pixels.
    public var width: Int
    /// Rows of pixels.
    public var height: Int

    /// A size from its two sides.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// A square size: `PixelSize(256)` is 256 × 256.
    public init(_ side: Int) {
        self.init(width: side, height: side)
    }

    /// `width * height`.
    public var area: Int { width * height }

    public var description: String { "\(width)x\(height)" }
}
