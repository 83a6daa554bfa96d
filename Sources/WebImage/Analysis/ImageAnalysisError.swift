/// Why a fact of an image (a BlurHash, a ThumbHash, a palette) could not be computed from it.
public enum ImageAnalysisError: Error, Sendable, Hashable, CustomStringConvertible {
    /// BlurHash takes 1 to 9 components across (`x`) and down (`y`); these were asked for.
    case componentsOutOfRange(x: Int, y: Int)
    /// The image has no pixels (a side is 0), so there is nothing to describe.
    case emptyImage
    /// A palette has 2 to 256 colours; this many were asked for.
    case paletteSizeOutOfRange(Int)
    /// The image is larger than the algorithm takes (`limit` pixels a side): the caller
    /// shrinks it first, since the answer would be no better and much slower to compute.
    case imageTooLarge(width: Int, height: Int, limit: Int)
    /// Two images compared pixel for pixel differ in size.
    case sizesDiffer(PixelSize, PixelSize)
    /// The image is smaller than the algorithm's window (`minimum` pixels a side).
    case imageTooSmall(width: Int, height: Int, minimum: Int)

    /// One line saying what was wrong.
    public var description: String {
        switch self {
        case let .componentsOutOfRange(x, y): "a BlurHash takes 1 to 9 components each way, not \(x) × \(y)"
        case .emptyImage: "the image has no pixels"
        case let .paletteSizeOutOfRange(size): "a palette has 2 to 256 colours, not \(size)"
        case let .imageTooLarge(width, height, limit): "a \(width) × \(height) image is over \(limit) pixels a side: shrink it first"
        case let .sizesDiffer(first, second): "images of \(first) and \(second) cannot be compared pixel for pixel"
        case let .imageTooSmall(width, height, minimum): "a \(width) × \(height) image is under \(minimum) pixels a side"
        }
    }
}
