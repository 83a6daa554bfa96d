import WebImage

/// How to decode one JPEG for a request: the DCT scale libjpeg decodes at, the size that gives,
/// and the size the result is resampled to.
///
/// libjpeg-turbo scales while it decodes (1/2, 1/4, 1/8) for almost nothing, so a thumbnail
/// decodes at the strongest reduction that still covers the target in both dimensions, and
/// the resampler only finishes the last step.
struct JPEGDecodePlan: Sendable {
    /// The DCT scaling denominators libjpeg offers, strongest first.
    static let denominators = [8, 4, 2]

    /// libjpeg decodes at 1/`scaleDenominator`: 1, 2, 4 or 8.
    let scaleDenominator: Int
    /// The size libjpeg outputs, in stored orientation (before EXIF orientation).
    let decodedSize: PixelSize
    /// The final size in stored orientation: the target of `options`, before orientation.
    let storedTargetSize: PixelSize

    /// The plan for an image stored at `imageSize` with `orientation`, decoded with `options`.
    init(imageSize: PixelSize, orientation: ImageOrientation, options: ImageDecodeOptions) {
        let upright = orientation.swapsDimensions ? imageSize.transposed : imageSize
        let target = options.targetSize(for: upright)
        let storedTarget = orientation.swapsDimensions ? target.transposed : target
        let denominator = Self.denominators.first { d in
            let scaled = Self.scaled(imageSize, denominator: d)
            return scaled.width >= storedTarget.width && scaled.height >= storedTarget.height
        } ?? 1
        self.scaleDenominator = denominator
        self.decodedSize = Self.scaled(imageSize, denominator: denominator)
        self.storedTargetSize = storedTarget
    }

    /// libjpeg's output size at 1/`denominator`: each side divided, rounded up.
    static func scaled(_ size: PixelSize, denominator: Int) -> PixelSize {
        PixelSize(width: (size.width + denominator - 1) / denominator,
                  height: (size.height + denominator - 1) / denominator)
    }
}

extension PixelSize {
    /// Width and height swapped.
    fileprivate var transposed: PixelSize { PixelSize(width: height, height: width) }
}
