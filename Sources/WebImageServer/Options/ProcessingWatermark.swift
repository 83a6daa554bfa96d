/// The configured watermark laid over the result (imgproxy's
/// `watermark:%opacity:%position:%x_offset:%y_offset:%scale`). Without a watermark image
/// configured the option is accepted and does nothing, as imgproxy does.
public struct ProcessingWatermark: Sendable, Hashable {
    /// How opaque the mark is, 0…1 (0 turns the watermark off).
    public var opacity: Double
    /// Where the mark goes and its offsets (pixels times dpr from 1 up, fractions of the
    /// result's side below 1); never smart or a focus point. Ignored when ``tiled``.
    public var gravity: Gravity
    /// Whether the mark is repeated over the whole result (`re`), the offsets then being the
    /// space between copies.
    public var tiled: Bool
    /// The mark's size as a fraction of the result's (fitted inside result width × scale by
    /// height × scale), or 0 for its own size.
    public var scale: Double

    /// A watermark of `opacity` at `gravity` (or tiled), at its own size unless `scale` is above 0.
    public init(opacity: Double, gravity: Gravity = .centre, tiled: Bool = false, scale: Double = 0) {
        self.opacity = opacity
        self.gravity = gravity
        self.tiled = tiled
        self.scale = scale
    }

    /// `wm:0.5:re:10:10:0.2`: how the canonical cache key spells it.
    var canonical: String {
        let position = tiled ? "re:\(CanonicalNumber.spell(gravity.x)):\(CanonicalNumber.spell(gravity.y))" : gravity.canonical
        return "wm:\(CanonicalNumber.spell(opacity)):\(position):\(CanonicalNumber.spell(scale))"
    }
}
