import CWebP
import WebImage

/// libwebp's encoder presets: starting values of its filtering, noise shaping and sharpness
/// tuned for a kind of picture (imgproxy's `IMGPROXY_WEBP_PRESET`, libvips's `preset`).
public enum WebPEncodingPreset: String, Sendable, Hashable, CaseIterable {
    /// libwebp's defaults, as `WebPConfigInit` sets them.
    case `default`
    /// Outdoor photographs with natural light.
    case photo
    /// Indoor photographs, such as portraits.
    case picture
    /// Drawings with high-contrast details.
    case drawing
    /// Small colourful images.
    case icon
    /// Text-like images.
    case text

    /// The preset for images showing `kind`.
    public init(kind: ImageContentKind) {
        self = switch kind {
        case .general: .default
        case .picture: .picture
        case .photo: .photo
        case .drawing: .drawing
        case .icon: .icon
        case .text: .text
        }
    }

    /// The preset as libwebp numbers it.
    var libwebpPreset: WebPPreset {
        switch self {
        case .default: WEBP_PRESET_DEFAULT
        case .photo: WEBP_PRESET_PHOTO
        case .picture: WEBP_PRESET_PICTURE
        case .drawing: WEBP_PRESET_DRAWING
        case .icon: WEBP_PRESET_ICON
        case .text: WEBP_PRESET_TEXT
        }
    }
}
