/// How a resize fits an image into a target size (SDWebImage's `SDImageScaleMode`).
public enum ImageScaleMode: String, Sendable, Hashable, CaseIterable {
    /// Stretches the image to exactly the target size, changing its aspect ratio if needed.
    case fill
    /// Scales the image to fit inside the target size, keeping its aspect ratio; the rest of
    /// the target is transparent, so the output is exactly the target size.
    case aspectFit
    /// Scales the image to cover the target size, keeping its aspect ratio, and crops what
    /// overflows equally on both sides.
    case aspectFill
}
