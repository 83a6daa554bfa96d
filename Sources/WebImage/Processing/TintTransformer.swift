/// Tints every frame towards a colour, keeping each pixel's alpha (SDWebImage's
/// `SDImageTintTransformer`, whose source-atop blend this is).
///
/// Each visible pixel's colour moves ``fraction`` of the way to ``color``, weighted further
/// by the tint's own alpha; a fraction of 1 with an opaque tint paints the image's shape in
/// the tint colour.
public struct TintTransformer: ImageTransformer {
    /// The tint colour.
    public let color: RGBA
    /// How far colours move towards the tint, 0…1.
    public let fraction: Double

    /// A tint with `color`, blended by `fraction` (clamped to 0…1).
    public init(color: RGBA, fraction: Double = 1) {
        self.color = color
        self.fraction = fraction.isFinite ? min(max(fraction, 0), 1) : 1
    }

    /// `tint(#RRGGBBAA,0.5)`.
    public var key: String { "tint(\(TransformerKey.colour(color)),\(TransformerKey.number(fraction)))" }

    /// Every frame tinted; nil when the tint would change nothing.
    public func transform(_ image: Image, forKey key: String) -> Image? {
        let amount = Float(fraction) * Float(color.a) / 255
        guard amount > 0 else { return nil }
        let tint = SIMD4<Float>(Float(color.r), Float(color.g), Float(color.b), 0)
        return image.mappingFrames { pixels in
            var out = pixels
            out.bytes.withUnsafeMutableBytes { bytes in
                for i in stride(from: 0, to: bytes.count, by: 4) {
                    let pixel = SIMD4<Float>(bytes.loadUnaligned(fromByteOffset: i, as: SIMD4<UInt8>.self))
                    let mixed = pixel + (tint - pixel) * amount + 0.5
                    bytes[i] = UInt8(mixed.x)
                    bytes[i + 1] = UInt8(mixed.y)
                    bytes[i + 2] = UInt8(mixed.z)
                }
            }
            return out
        }
    }
}

extension ImageTransformer where Self == TintTransformer {
    /// Tints towards `color` by `fraction` (1: fully), keeping alpha.
    public static func tint(_ color: RGBA, fraction: Double = 1) -> TintTransformer {
        TintTransformer(color: color, fraction: fraction)
    }
}
