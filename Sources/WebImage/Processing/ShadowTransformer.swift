/// Puts a soft shadow under every frame: its silhouette (its alpha) in a colour, blurred with a
/// Gaussian, on a canvas grown by three sigmas each side so that the shadow is not cut off
/// (imgproxy's `watermark_shadow`). The frame keeps its place in the middle of the canvas.
public struct ShadowTransformer: ImageTransformer, Hashable {
    /// The blur's standard deviation in pixels.
    public let sigma: Double
    /// The shadow's colour; its alpha scales the silhouette's.
    public let color: RGBA

    /// A shadow of `color` (black by default) blurred by `sigma` (not finite or below 0 is 0, above `ProgressiveBlurTransformer.maxSigma` that).
    public init(sigma: Double, color: RGBA = RGBA(r: 0, g: 0, b: 0)) {
        self.sigma = sigma.isFinite ? min(max(0, sigma), ProgressiveBlurTransformer.maxSigma) : 0
        self.color = color
    }

    /// `shadow(4,#000000FF)`.
    public var key: String { "shadow(\(TransformerKey.number(sigma)),\(TransformerKey.colour(color)))" }

    /// How far the canvas grows each side.
    public var margin: Int { Int((sigma * 3).rounded(.up)) }

    /// Every frame over its shadow; nil for a sigma too small to show one.
    public func transform(_ image: Image, forKey key: String) -> Image? {
        guard sigma >= 0.1, image.pixelWidth > 0, image.pixelHeight > 0 else { return nil }
        return image.mappingFrames(shadowed)
    }

    private func shadowed(_ frame: PixelBuffer) -> PixelBuffer {
        let margin = margin
        let canvas = PixelSize(width: frame.width + 2 * margin, height: frame.height + 2 * margin)
        var silhouette = frame.placed(on: canvas, at: (margin, margin), fill: RGBA(r: 0, g: 0, b: 0, a: 0))
        let shade = UInt16(color.a)
        silhouette.bytes.withUnsafeMutableBufferPointer { bytes in
            for i in stride(from: 0, to: bytes.count, by: 4) {
                bytes[i] = color.r
                bytes[i + 1] = color.g
                bytes[i + 2] = color.b
                bytes[i + 3] = UInt8((UInt16(bytes[i + 3]) * shade + 127) / 255)
            }
        }
        let blurred = GaussianBlurTransformer(radius: sigma).transform(Image(pixels: silhouette), forKey: "")?.pixels ?? silhouette
        return frame.drawn(over: blurred, at: (margin, margin))
    }
}

extension ImageTransformer where Self == ShadowTransformer {
    /// Puts a shadow of `color` blurred by `sigma` pixels under the image.
    public static func shadow(sigma: Double, color: RGBA = RGBA(r: 0, g: 0, b: 0)) -> ShadowTransformer {
        ShadowTransformer(sigma: sigma, color: color)
    }
}
