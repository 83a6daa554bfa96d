/// Blurs every frame with a Gaussian kernel (SDWebImage's `SDImageBlurTransformer`).
///
/// The blur is separable (a horizontal then a vertical pass of the same `FilterTable`
/// convolution the resampler uses) and works on premultiplied colour, so transparent pixels
/// do not darken their neighbours. Near the edges only the pixels inside weigh in.
public struct GaussianBlurTransformer: ImageTransformer {
    /// The Gaussian's standard deviation in pixels; the kernel reaches three of them each side.
    public let radius: Double

    /// A blur of `radius` pixels (the Gaussian's standard deviation).
    public init(radius: Double) {
        self.radius = radius.isFinite ? max(0, radius) : 0
    }

    /// `blur(4)`.
    public var key: String { "blur(\(TransformerKey.number(radius)))" }

    /// Every frame blurred; nil for a radius too small to change anything.
    public func transform(_ image: Image, forKey key: String) -> Image? {
        guard radius >= 0.1, image.pixelWidth > 0, image.pixelHeight > 0 else { return nil }
        let horizontal = FilterTable.gaussian(sigma: radius, size: image.pixelWidth)
        let vertical = FilterTable.gaussian(sigma: radius, size: image.pixelHeight)
        return image.mappingFrames { SeparableConvolution.apply($0, horizontal: horizontal, vertical: vertical) }
    }
}

extension ImageTransformer where Self == GaussianBlurTransformer {
    /// Blurs with a Gaussian of standard deviation `radius` pixels.
    public static func blur(radius: Double) -> GaussianBlurTransformer {
        GaussianBlurTransformer(radius: radius)
    }
}
