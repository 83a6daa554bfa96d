/// How a coder turns an ``Image`` into bytes.
public struct ImageEncodeOptions: Sendable, Hashable {
    /// Quality from 0 (smallest) to 1 (best) for lossy formats (JPEG, lossy WebP). 0.9 by default.
    public var quality: Double
    /// Encode WebP losslessly.
    public var lossless: Bool
    /// Encode only the first frame of an animated image.
    public var firstFrameOnly: Bool

    /// Options with the given values.
    public init(quality: Double = 0.9, lossless: Bool = false, firstFrameOnly: Bool = false) {
        self.quality = quality
        self.lossless = lossless
        self.firstFrameOnly = firstFrameOnly
    }
}
