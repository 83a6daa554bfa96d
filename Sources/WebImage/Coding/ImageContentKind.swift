/// What an image shows, for encoders that tune by it (WebP's presets, imgproxy's
/// `IMGPROXY_WEBP_PRESET` and `webp_options`' preset); other encoders ignore it.
public enum ImageContentKind: String, Sendable, Hashable, CaseIterable {
    /// Anything: the encoder's general-purpose defaults.
    case general
    /// An indoor photograph, such as a portrait.
    case picture
    /// An outdoor photograph with natural light.
    case photo
    /// A drawing with high-contrast details.
    case drawing
    /// A small colourful image.
    case icon
    /// A text-like image, with large areas of uniform colour.
    case text
}
