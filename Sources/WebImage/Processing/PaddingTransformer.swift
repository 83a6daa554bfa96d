/// Adds space around every frame, filled with a colour (transparent by default): imgproxy's
/// `padding`, a CSS-like border outside the image.
public struct PaddingTransformer: ImageTransformer {
    /// Pixels added above, right of, below and left of the image.
    public let top: Int, right: Int, bottom: Int, left: Int
    /// The colour of the added space.
    public let fill: RGBA

    /// Padding of the given sides in pixels (negative ones count as 0), filled with `fill`.
    public init(top: Int, right: Int, bottom: Int, left: Int, fill: RGBA = .clear) {
        self.top = max(0, top)
        self.right = max(0, right)
        self.bottom = max(0, bottom)
        self.left = max(0, left)
        self.fill = fill
    }

    /// `padding(1,2,3,4,#FFFFFFFF)`: the sides in CSS's order and the fill.
    public var key: String { "padding(\(top),\(right),\(bottom),\(left),\(TransformerKey.colour(fill)))" }

    /// Every frame on its larger canvas; nil when no side adds space.
    public func transform(_ image: Image, forKey key: String) -> Image? {
        guard top + right + bottom + left > 0 else { return nil }
        return image.mappingFrames { frame in
            frame.placed(on: PixelSize(width: frame.width + left + right, height: frame.height + top + bottom),
                         at: (left, top), fill: fill)
        }
    }
}

extension ImageTransformer where Self == PaddingTransformer {
    /// Adds `top`, `right`, `bottom` and `left` pixels around the image, filled with `fill`.
    public static func padding(top: Int, right: Int, bottom: Int, left: Int, fill: RGBA = .clear) -> PaddingTransformer {
        PaddingTransformer(top: top, right: right, bottom: bottom, left: left, fill: fill)
    }
}
