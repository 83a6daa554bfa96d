/// Why an ``AnimatedImage`` could not be made or could not give a frame.
public enum AnimatedImageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No registered coder reads this format frame by frame (`.undefined` when the bytes are
    /// not a format WebImage recognises). Decode such data into an ``Image`` instead.
    case notAnimatable(ImageFormat)
    /// The coder rejected the data, or a frame of it could not be decoded.
    case decoding(ImageCodingError)
    /// A frame index outside `0..<frameCount` was asked for.
    case frameOutOfRange(index: Int, frameCount: Int)
    /// A loop outside the animation's loop count was asked for (a seek past the last loop).
    case loopOutOfRange(loop: Int, loopCount: Int)

    public var description: String {
        switch self {
        case .notAnimatable(.undefined):
            "not an animated image: the bytes are not an image format WebImage recognises"
        case .notAnimatable(let format):
            "not an animated image: no registered coder reads \(format) frame by frame"
        case .decoding(let error): "\(error)"
        case .frameOutOfRange(let index, let count): "no frame \(index) in an animation of \(count) frames"
        case .loopOutOfRange(let loop, let count): "no loop \(loop) in an animation that plays \(count) times"
        }
    }
}
