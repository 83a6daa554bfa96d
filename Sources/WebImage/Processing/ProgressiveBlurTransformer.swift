/// Blurs every frame more and more along a direction: sharp where its ramp is 0, blurred with
/// the full sigma where it is 1 (imgproxy's `progressive_blur`, the soft edge under a caption).
///
/// The frame is blurred at ``levels`` sigmas evenly spaced up to ``sigma``, and each pixel mixes
/// the two levels its place on the ramp falls between, so that the blur grows without steps;
/// two levels are held at a time.
public struct ProgressiveBlurTransformer: ImageTransformer, Hashable {
    /// The Gaussian's standard deviation in pixels where the blur is full.
    public let sigma: Double
    /// Where the blur grows from none (0) to full (1).
    public let ramp: LinearRamp

    /// The largest sigma these blurs take (a larger one is this): ten thousand pixels, past which
    /// every image this library holds is one flat colour anyway.
    public static let maxSigma = 10_000.0

    /// A blur growing to `sigma` pixels along `ramp` (a sigma that is not finite or below 0 is
    /// 0, one above ``maxSigma`` is that).
    public init(sigma: Double, ramp: LinearRamp = LinearRamp()) {
        self.sigma = sigma.isFinite ? min(max(0, sigma), Self.maxSigma) : 0
        self.ramp = ramp
    }

    /// `progressiveBlur(8,0,0,1)`: the sigma, then the ramp's angle, start and stop.
    public var key: String { "progressiveBlur(\(TransformerKey.number(sigma)),\(ramp.key))" }

    /// How many blurred copies the frame is mixed from: one for every two pixels of sigma, 2…8.
    public var levels: Int { min(max(Int((sigma / 2).rounded(.up)), 2), 8) }

    /// Every frame progressively blurred; nil for a sigma too small to change anything.
    public func transform(_ image: Image, forKey key: String) -> Image? {
        guard sigma >= 0.1, image.pixelWidth > 0, image.pixelHeight > 0 else { return nil }
        return image.mappingFrames(blurred)
    }

    private func blurred(_ frame: PixelBuffer) -> PixelBuffer {
        let levels = levels, width = frame.width, height = frame.height
        let values = ramp.values(width: width, height: height)
        var out = frame
        // Two levels at a time, so that the frame is held three times whatever the levels: each
        // pixel mixes the levels its place on the ramp falls between.
        var below = frame
        for level in 0..<levels {
            let above = GaussianBlurTransformer(radius: sigma * Double(level + 1) / Double(levels))
                .transform(Image(pixels: frame), forKey: "")?.pixels ?? frame
            below.bytes.withUnsafeBufferPointer { lower in
                above.bytes.withUnsafeBufferPointer { upper in
                    out.bytes.withUnsafeMutableBufferPointer { target in
                        for y in 0..<height {
                            for x in 0..<width {
                                let place = values(x, y) * Double(levels)
                                guard min(Int(place), levels - 1) == level else { continue }
                                let share = place - Double(level), i = (y * width + x) * 4
                                for channel in i..<(i + 4) {
                                    let mixed = Double(lower[channel]) + (Double(upper[channel]) - Double(lower[channel])) * share
                                    target[channel] = UInt8(mixed.rounded())
                                }
                            }
                        }
                    }
                }
            }
            below = above
        }
        return out
    }
}

extension ImageTransformer where Self == ProgressiveBlurTransformer {
    /// Blurs more and more along `ramp`, up to a Gaussian of standard deviation `sigma` pixels.
    public static func progressiveBlur(sigma: Double, _ ramp: LinearRamp = LinearRamp()) -> ProgressiveBlurTransformer {
        ProgressiveBlurTransformer(sigma: sigma, ramp: ramp)
    }
}
