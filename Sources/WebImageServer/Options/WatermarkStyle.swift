/// How imgproxy Pro's options shape the watermark before it is laid: `watermark_size`,
/// `watermark_rotate` and `watermark_shadow`, in that order. They change nothing without a
/// ``ProcessingWatermark``.
public struct WatermarkStyle: Sendable, Hashable {
    /// The box the mark is fitted in (enlarged when smaller), in pixels; a side of 0 follows the
    /// other and the mark's aspect ratio, both 0 keep its size. Used only when the watermark's
    /// ``ProcessingWatermark/scale`` is 0, as imgproxy documents.
    public var width = 0
    /// The box's height; see ``width``.
    public var height = 0
    /// The turn, in degrees clockwise, the canvas growing to hold the turned mark.
    public var rotation: Double = 0
    /// The sigma of a black shadow blurred under the mark, or 0 for none.
    public var shadowSigma: Double = 0

    /// A style that leaves the mark as it is.
    public init() {}

    /// Whether it changes nothing.
    var isPlain: Bool { self == WatermarkStyle() }

    /// The cache key's part, nil when plain.
    var canonical: String? {
        isPlain ? nil : "wms:\(width):\(height):\(CanonicalNumber.spell(rotation)):\(CanonicalNumber.spell(shadowSigma))"
    }
}
