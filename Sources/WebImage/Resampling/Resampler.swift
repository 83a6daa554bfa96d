/// Resizes pixels with a separable Lanczos-3 filter, widened when shrinking so every source
/// pixel contributes (area-aware, like Pillow's `LANCZOS`).
///
/// Filtering happens on premultiplied colour, so a transparent pixel's colour never bleeds
/// into its opaque neighbours; the result is non-premultiplied again.
public enum Resampler {
    /// `pixels` resized to `size` (each side at least 1).
    public static func resize(_ pixels: PixelBuffer, to size: PixelSize) -> PixelBuffer {
        let outWidth = max(1, size.width), outHeight = max(1, size.height)
        if outWidth == pixels.width && outHeight == pixels.height { return pixels }
        if pixels.width == 0 || pixels.height == 0 { return PixelBuffer(width: outWidth, height: outHeight) }
        return SeparableConvolution.apply(
            pixels,
            horizontal: .lanczos(from: pixels.width, to: outWidth),
            vertical: .lanczos(from: pixels.height, to: outHeight))
    }
}
