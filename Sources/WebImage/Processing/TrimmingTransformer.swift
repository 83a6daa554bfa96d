/// Removes a uniform border from every frame (imgproxy's `trim`): the rows and columns at the
/// edges whose pixels are all within `threshold` of the border colour on every channel.
///
/// The border colour is `colour`, or the top left pixel's (the bottom right one's with
/// `fromBottomRight`, thumbor's `trim:bottom-right`). Transparent pixels are first
/// flattened onto magenta (255, 0, 255), so a transparent border is trimmed by asking for
/// magenta. A single stray pixel does not stop the trim: a pixel counts as content only when
/// most of the pixels around it (a 3 × 3 median) differ from the border too. An animation is
/// cut where its first frame's border ends.
public struct TrimmingTransformer: ImageTransformer {
    /// How far (0…255, on any channel) a pixel may be from the border colour and still be border.
    public let threshold: Double
    /// The border colour, or nil for the top left pixel's.
    public let colour: RGBA?
    /// Whether the left and right edges lose the same amount: the smaller of the two.
    public let equalHorizontal: Bool
    /// Whether the top and bottom edges lose the same amount: the smaller of the two.
    public let equalVertical: Bool
    /// Whether the border colour, without `colour`, is the bottom right pixel's rather than the top left one's.
    public let fromBottomRight: Bool

    /// A trim of the border within `threshold` of `colour` (when nil, the top left pixel's, or
    /// the bottom right one's when `fromBottomRight`).
    public init(threshold: Double, colour: RGBA? = nil, equalHorizontal: Bool = false, equalVertical: Bool = false,
                fromBottomRight: Bool = false) {
        self.threshold = threshold.isFinite ? max(0, threshold) : 0
        self.colour = colour
        self.equalHorizontal = equalHorizontal
        self.equalVertical = equalVertical
        self.fromBottomRight = colour == nil && fromBottomRight
    }

    /// `trim(10,corner)`, `trim(10,bottom-right)`, `trim(1,#FF0000FF,equal-horizontal,equal-vertical)`.
    public var key: String {
        (["trim(\(TransformerKey.number(threshold))", colour.map(TransformerKey.colour) ?? (fromBottomRight ? "bottom-right" : "corner")]
            + (equalHorizontal ? ["equal-horizontal"] : []) + (equalVertical ? ["equal-vertical"] : []))
            .joined(separator: ",") + ")"
    }

    /// Every frame without its border; nil when there is no border to remove, or nothing but border.
    public func transform(_ image: Image, forKey key: String) -> Image? {
        guard let rect = content(of: image.pixels),
              rect != PixelRect(x: 0, y: 0, width: image.pixelWidth, height: image.pixelHeight) else { return nil }
        return image.mappingFrames { $0.cropped(to: rect) }
    }

    /// The area of `pixels` inside the border, or nil when every pixel is border.
    public func content(of pixels: PixelBuffer) -> PixelRect? {
        let width = pixels.width, height = pixels.height
        guard width > 0, height > 0 else { return nil }
        let mask = TrimMask(pixels, colour: colour, threshold: threshold, fromBottomRight: fromBottomRight)
        guard var box = mask.contentBox() else { return nil }
        if equalHorizontal {
            let cut = min(box.x, width - box.x - box.width)
            box = PixelRect(x: cut, y: box.y, width: width - 2 * cut, height: box.height)
        }
        if equalVertical {
            let cut = min(box.y, height - box.y - box.height)
            box = PixelRect(x: box.x, y: cut, width: box.width, height: height - 2 * cut)
        }
        return box
    }
}

extension ImageTransformer where Self == TrimmingTransformer {
    /// Trims the border within `threshold` of `colour` (when nil, the top left pixel's, or the
    /// bottom right one's when `fromBottomRight`).
    public static func trim(threshold: Double, colour: RGBA? = nil, equalHorizontal: Bool = false,
                            equalVertical: Bool = false, fromBottomRight: Bool = false) -> TrimmingTransformer {
        TrimmingTransformer(threshold: threshold, colour: colour, equalHorizontal: equalHorizontal, equalVertical: equalVertical,
                            fromBottomRight: fromBottomRight)
    }
}
