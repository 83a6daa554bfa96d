/// Crops every frame to a rectangle of pixels (SDWebImage's `SDImageCroppingTransformer`).
///
/// The rectangle is clipped to the image; a rectangle entirely outside it does not apply.
public struct CroppingTransformer: ImageTransformer {
    /// The pixels to keep.
    public let rect: PixelRect

    /// A crop to `rect`.
    public init(rect: PixelRect) {
        self.rect = rect
    }

    /// `crop(x,y,WxH)`.
    public var key: String { "crop(\(rect))" }

    /// Every frame cropped to ``rect`` clipped to the image; nil when nothing of it is inside.
    public func transform(_ image: Image, forKey key: String) -> Image? {
        let inside = rect.intersection(PixelRect(x: 0, y: 0, width: image.pixelWidth, height: image.pixelHeight))
        guard !inside.isEmpty else { return nil }
        return image.mappingFrames { $0.cropped(to: inside) }
    }
}

extension ImageTransformer where Self == CroppingTransformer {
    /// Crops to `rect`, in pixels.
    public static func crop(_ rect: PixelRect) -> CroppingTransformer {
        CroppingTransformer(rect: rect)
    }
}
