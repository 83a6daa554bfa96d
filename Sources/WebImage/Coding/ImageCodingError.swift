/// Why bytes could not become an image, or an image could not become bytes.
public enum ImageCodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// There were no bytes at all.
    case empty
    /// The bytes are a format no registered coder decodes (`.undefined` when not recognised at all).
    case unsupportedFormat(ImageFormat)
    /// The bytes claim to be `format` but are damaged; the string says what the library reported.
    case corrupt(ImageFormat, String)
    /// The bytes end before the image does.
    case truncated(ImageFormat)
    /// The file uses a feature we do not decode, such as a 12-bit JPEG.
    case unsupportedFeature(ImageFormat, String)
    /// A frame would hold more pixels than ``ImageDecodeOptions/maxPixels`` allows.
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// An animation has more frames than ``ImageDecodeOptions/maxFrameCount`` allows.
    case tooManyFrames(count: Int, limit: Int)
    /// The source declares more pixels than ``ImageDecodeOptions/maxSourcePixels`` (or one frame
    /// more than ``ImageDecodeOptions/maxAnimationFramePixels``): `frames` frames of
    /// `width` × `height`, refused from the header, before a pixel is decoded.
    case tooManySourcePixels(width: Int, height: Int, frames: Int, limit: Int)
    /// No registered coder encodes this format.
    case noEncoder(ImageFormat)
    /// The encoder failed; the string says what the library reported.
    case encodingFailed(ImageFormat, String)

    /// Whether the bytes themselves are at fault — none, not an image, damaged, cut short — so
    /// that fetching them again may give better ones (an upload that was not finished, a body
    /// cut off); false for an image refused by a limit or a feature, which the same bytes
    /// would meet again.
    public var isUnusableData: Bool {
        switch self {
        case .empty, .unsupportedFormat, .corrupt, .truncated: true
        case .unsupportedFeature, .tooManyPixels, .tooManyFrames, .tooManySourcePixels, .noEncoder, .encodingFailed: false
        }
    }

    public var description: String {
        switch self {
        case .empty: "no image data (0 bytes)"
        case .unsupportedFormat(.undefined): "unsupported format: the bytes are not an image format WebImage recognises"
        case .unsupportedFormat(let format): "unsupported format: \(format) (recognised, but no decoder is registered for it)"
        case .corrupt(let format, let why): "corrupt \(format) data: \(why)"
        case .truncated(let format): "truncated \(format) data: the bytes end before the image does"
        case .unsupportedFeature(let format, let what): "unsupported \(format) feature: \(what)"
        case .tooManyPixels(let w, let h, let limit): "image too large: \(w)x\(h) pixels exceeds the limit of \(limit) pixels"
        case .tooManyFrames(let count, let limit): "too many frames: \(count) exceeds the limit of \(limit)"
        case .tooManySourcePixels(let w, let h, 1, let limit):
            "source too large: \(w)x\(h) pixels exceeds the limit of \(limit) pixels"
        case .tooManySourcePixels(let w, let h, let frames, let limit):
            "source too large: \(frames) frames of \(w)x\(h) pixels exceed the limit of \(limit) pixels"
        case .noEncoder(let format): "no encoder for \(format)"
        case .encodingFailed(let format, let why): "could not encode \(format): \(why)"
        }
    }
}
