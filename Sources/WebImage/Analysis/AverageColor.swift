/// The mean colour of an image, as imgproxy's `/info` endpoint reports it under `average`.
public enum AverageColor {
    /// The mean of each of R, G, B and A over `pixels`, each rounded to the nearest integer;
    /// nil when no pixel counts (an empty image, or every pixel fully transparent while
    /// `ignoringTransparent`).
    ///
    /// With `ignoringTransparent` (imgproxy's `ignore_transparent`), pixels whose alpha is 0
    /// are left out, so a cut-out's background does not pull its colour toward black; the
    /// others all count alike. Colour is averaged as stored, not weighted by alpha: imgproxy
    /// takes the plain mean of each band, and alpha is reported as its own mean beside it, so
    /// a half-transparent image's average says so in its A.
    public static func of(_ pixels: PixelBuffer, ignoringTransparent: Bool = true) -> RGBA? {
        var sums = SIMD4<Int>.zero, count = 0
        pixels.bytes.withUnsafeBufferPointer { bytes in
            var i = 0
            while i + 3 < bytes.count {
                if !ignoringTransparent || bytes[i + 3] != 0 {
                    sums &+= SIMD4(Int(bytes[i]), Int(bytes[i + 1]), Int(bytes[i + 2]), Int(bytes[i + 3]))
                    count += 1
                }
                i += 4
            }
        }
        guard count > 0 else { return nil }
        let mean = (sums &* 2 &+ count) / (2 * count)
        return RGBA(r: UInt8(mean.x), g: UInt8(mean.y), b: UInt8(mean.z), a: UInt8(mean.w))
    }
}
