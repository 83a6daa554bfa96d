/// Mirrors every frame left to right, top to bottom, or both (SDWebImage's
/// `SDImageFlippingTransformer`).
public struct FlippingTransformer: ImageTransformer {
    /// Whether columns are mirrored (left becomes right).
    public let horizontal: Bool
    /// Whether rows are mirrored (top becomes bottom).
    public let vertical: Bool

    /// A flip along the chosen axes.
    public init(horizontal: Bool, vertical: Bool) {
        self.horizontal = horizontal
        self.vertical = vertical
    }

    /// `flip(horizontal)`, `flip(vertical)`, `flip(horizontal,vertical)` or `flip()`.
    public var key: String {
        "flip(" + [horizontal ? "horizontal" : nil, vertical ? "vertical" : nil].compactMap { $0 }.joined(separator: ",") + ")"
    }

    /// Every frame mirrored; nil when neither axis is chosen.
    public func transform(_ image: Image, forKey key: String) -> Image? {
        let orientation: ImageOrientation
        switch (horizontal, vertical) {
        case (true, true): orientation = .down
        case (true, false): orientation = .upMirrored
        case (false, true): orientation = .downMirrored
        case (false, false): return nil
        }
        return image.mappingFrames { $0.applying(orientation) }
    }
}

extension ImageTransformer where Self == FlippingTransformer {
    /// Mirrors left to right (`horizontal`) and/or top to bottom (`vertical`).
    public static func flip(horizontal: Bool = false, vertical: Bool = false) -> FlippingTransformer {
        FlippingTransformer(horizontal: horizontal, vertical: vertical)
    }
}
