/// The mean colour of an image, as imgproxy's `/info` `average` reports it.
public enum AverageColor {
    /// The mean of each channel over `pixels` (rounded), fully transparent pixels left out when
    /// `ignoringTransparent`; nil when no pixel counts. Colour is averaged as stored (not
    /// weighted by alpha), as libvips's band means are.
    public static func of(_ pixels: PixelBuffer, ignoringTransparent: Bool = true) -> RGBA? {
        var sums = (r: 0, g: 0, b: 0, a: 0), count = 0
        pixels.bytes.withUnsafeBufferPointer { bytes in
            var i = 0
            while i + 3 < bytes.count {
                if !ignoringTransparent || bytes[i + 3] != 0 {
                    sums.r += Int(bytes[i]); sums.g += Int(bytes[i + 1]); sums.b += Int(bytes[i + 2]); sums.a += Int(bytes[i + 3])
                    count += 1
                }
                i += 4
            }
        }
        guard count > 0 else { return nil }
        func mean(_ sum: Int) -> UInt8 { UInt8((Double(sum) / Double(count)).rounded()) }
        return RGBA(r: mean(sums.r), g: mean(sums.g), b: mean(sums.b), a: mean(sums.a))
    }
}
