/// Sharpens every frame with an unsharp mask: each pixel moves away from its Gaussian-blurred
/// surroundings by as much as it differs from them (imgproxy's `sharpen`, thumbor's
/// `sharpen`), so edges gain contrast and flat areas stay as they are. Alpha is kept.
public struct SharpeningTransformer: ImageTransformer {
    /// The standard deviation, in pixels, of the blur the pixels are compared with: how wide
    /// the edges that gain contrast are.
    public let sigma: Double

    /// An unsharp mask comparing with a Gaussian of `sigma` pixels.
    public init(sigma: Double) {
        self.sigma = sigma.isFinite ? max(0, sigma) : 0
    }

    /// `sharpen(1.5)`.
    public var key: String { "sharpen(\(TransformerKey.number(sigma)))" }

    /// Every frame sharpened; nil for a sigma too small to change anything.
    public func transform(_ image: Image, forKey key: String) -> Image? {
        guard let blurred = GaussianBlurTransformer(radius: sigma).transform(image, forKey: "") else { return nil }
        var out = image
        out.frames = zip(image.frames, blurred.frames).map { original, soft in
            var pixels = original.pixels
            pixels.bytes.withUnsafeMutableBufferPointer { sharp in
                soft.pixels.bytes.withUnsafeBufferPointer { blur in
                    for offset in 0..<sharp.count where offset % 4 != 3 {
                        let value = 2 * Int(sharp[offset]) - Int(blur[offset])
                        sharp[offset] = UInt8(min(255, max(0, value)))
                    }
                }
            }
            return ImageFrame(pixels: pixels, duration: original.duration)
        }
        return out
    }
}

extension ImageTransformer where Self == SharpeningTransformer {
    /// Sharpens with an unsharp mask of a Gaussian of `sigma` pixels.
    public static func sharpen(sigma: Double) -> SharpeningTransformer {
        SharpeningTransformer(sigma: sigma)
    }
}
