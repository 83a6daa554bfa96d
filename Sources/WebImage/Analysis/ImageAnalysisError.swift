/// Why a fact of an image could not be computed.
public enum ImageAnalysisError: Error, Sendable, Hashable, CustomStringConvertible {
    /// BlurHash takes 1 to 9 components each way.
    case componentsOutOfRange(x: Int, y: Int)
    /// The image has no pixels.
    case emptyImage

    /// One line saying what was wrong.
    public var description: String {
        switch self {
        case let .componentsOutOfRange(x, y): "a BlurHash takes 1 to 9 components each way, not \(x) × \(y)"
        case .emptyImage: "the image has no pixels"
        }
    }
}
