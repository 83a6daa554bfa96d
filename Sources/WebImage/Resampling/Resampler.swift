/// Resizes pixels with a separable filter (Lanczos-3 unless another ``ResamplingFilter`` is
/// asked for), widened when shrinking so every source pixel contributes (area-aware, like
/// Pillow's `LANCZOS`).
///
/// Filtering happens on premultiplied colour, so a transparent pixel's colour never bleeds
/// into its opaque neighbours; the result is non-premultiplied again.
public enum Resampler {
    /// `pixels` resized to `size` (each side at least 1) with `filter`, mixing linear light
    /// rather than sRGB-encoded values when `linearLight` (imgproxy's
    /// `IMGPROXY_USE_LINEAR_COLORSPACE`): a fine pattern of black and white shrinks to the grey
    /// of their average light (sRGB 188) rather than of their bytes (128). Slower: the bytes'
    /// fixed-point filters are not used.
    public static func resize(_ pixels: PixelBuffer, to size: PixelSize, filter: ResamplingFilter = .lanczos3,
                              linearLight: Bool = false) -> PixelBuffer {
        let outWidth = max(1, size.width), outHeight = max(1, size.height)
        if outWidth == pixels.width && outHeight == pixels.height { return pixels }
        if pixels.width == 0 || pixels.height == 0 { return PixelBuffer(width: outWidth, height: outHeight) }
        return SeparableConvolution.apply(
            pixels,
            horizontal: .lanczos(from: pixels.width, to: outWidth, filter: filter),
            vertical: .lanczos(from: pixels.height, to: outHeight, filter: filter),
            linearLight: linearLight)
    }

    /// The centre of `pixels` that has the aspect ratio of `size`, resized to `size` (each side
    /// at least 1): an aspect-fill. The window is placed to a fraction of a pixel, so the
    /// margins cut off on opposite sides are equal whether the difference is odd or even.
    static func resizeCentre(_ pixels: PixelBuffer, to size: PixelSize, filter: ResamplingFilter = .lanczos3) -> PixelBuffer {
        let outWidth = max(1, size.width), outHeight = max(1, size.height)
        if pixels.width == 0 || pixels.height == 0 { return PixelBuffer(width: outWidth, height: outHeight) }
        let scale = max(Double(outWidth) / Double(pixels.width), Double(outHeight) / Double(pixels.height))
        let spanX = min(Double(pixels.width), Double(outWidth) / scale)
        let spanY = min(Double(pixels.height), Double(outHeight) / scale)
        return SeparableConvolution.apply(
            pixels,
            horizontal: .lanczos(from: pixels.width, to: outWidth, offset: (Double(pixels.width) - spanX) / 2, span: spanX, filter: filter),
            vertical: .lanczos(from: pixels.height, to: outHeight, offset: (Double(pixels.height) - spanY) / 2, span: spanY, filter: filter))
    }
}
