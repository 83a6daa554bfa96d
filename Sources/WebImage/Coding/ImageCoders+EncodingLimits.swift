import Foundation

extension ImageCoders {
    /// `image` as `coder` writes it, with ``ImageEncodeOptions/maxPixelSize``,
    /// ``ImageEncodeOptions/backgroundColor`` and ``ImageEncodeOptions/maxFileSize`` applied:
    /// the one place these options are honoured, so every coder (and the server's `max_bytes`)
    /// gets the same behaviour.
    func encode(_ image: Image, with coder: any ImageCoder, as format: ImageFormat,
                options: ImageEncodeOptions) throws -> Data {
        let source = Self.prepared(image, for: format, options: options)
        var attempt = options
        var data = try coder.encode(source, as: format, options: attempt)
        guard let limit = options.maxFileSize, limit > 0 else { return data }
        // The quality first (imgproxy's steps: a quarter, a half or three quarters off as the
        // output is a little, well or far over), while it stays above 0.1.
        var quality = Int((min(1, max(0, options.quality.isNaN ? 0.9 : options.quality)) * 100).rounded())
        while data.count > limit, quality > 10 {
            quality = Self.lowered(quality, over: Double(data.count) / Double(limit))
            attempt.quality = Double(quality) / 100
            data = try coder.encode(source, as: format, options: attempt)
        }
        guard options.shrinksToFitFileSize else { return data }
        // Then the size: bytes grow about with the area, so each side goes by the square root of
        // the excess, a tenth more, until the output fits or the image is one pixel.
        var size = source.pixelSize
        while data.count > limit, size.width > 1 || size.height > 1 {
            let scale = min(0.9, (Double(limit) / Double(data.count)).squareRoot() * 0.9)
            size = size.scaled(by: scale)
            data = try coder.encode(Self.resized(source, to: size), as: format, options: attempt)
        }
        return data
    }

    /// The next quality (1…100) for an output `over` times the limit: at least one lower.
    static func lowered(_ quality: Int, over: Double) -> Int {
        let factor = over > 3 ? 0.25 : over > 1.5 ? 0.5 : 0.75
        return max(1, min(quality - 1, Int((Double(quality) * factor).rounded())))
    }

    /// `image` shrunk to ``ImageEncodeOptions/maxPixelSize`` and, for a format without alpha,
    /// flattened onto ``ImageEncodeOptions/backgroundColor``.
    static func prepared(_ image: Image, for format: ImageFormat, options: ImageEncodeOptions) -> Image {
        var output = options.firstFrameOnly ? image.firstFrame : image
        if let limit = options.maxPixelSize, image.pixelWidth > 0, image.pixelHeight > 0 {
            let size = image.pixelSize.fitting(within: limit)
            output = resized(output, to: size)
        }
        if !format.storesAlpha {
            var background = options.backgroundColor
            background.a = 255
            output = output.mappingFrames { $0.hasTransparency ? $0.flattened(onto: background) : $0 }
        }
        return output
    }

    /// Every frame of `image` resampled to `size`; the image itself when it already has it.
    private static func resized(_ image: Image, to size: PixelSize) -> Image {
        guard size != image.pixelSize else { return image }
        return image.mappingFrames { Resampler.resize($0, to: size) }
    }
}
