/// Crops every frame to the most interesting area of a given size, as ``SmartCrop`` finds it
/// (attention-based: edges, skin tones, saturation), where ``CroppingTransformer`` needs the
/// rectangle spelled out. An animation is judged on its first frame and every frame cropped to
/// the same rectangle, so that it does not jump about.
public struct SmartCroppingTransformer: ImageTransformer {
    /// The size to keep, clipped to the image.
    public let size: PixelSize

    /// A smart crop to `size`.
    public init(size: PixelSize) {
        self.size = size
    }

    /// `smartCrop(WxH)`.
    public var key: String { "smartCrop(\(size))" }

    /// Every frame cropped to the most interesting `size` area of the first; nil for an empty size or image.
    public func transform(_ image: Image, forKey key: String) -> Image? {
        guard size.width > 0, size.height > 0, image.pixelWidth > 0, image.pixelHeight > 0 else { return nil }
        let rect = SmartCrop.region(of: size, in: image.pixels)
        return image.mappingFrames { $0.cropped(to: rect) }
    }
}

extension ImageTransformer where Self == SmartCroppingTransformer {
    /// Crops to the most interesting `width` × `height` pixels (imgproxy's `g:sm`).
    public static func smartCrop(width: Int, height: Int) -> SmartCroppingTransformer {
        SmartCroppingTransformer(size: PixelSize(width: width, height: height))
    }
}
