/// Tints every frame towards a colour (SDWebImage's `SDImageTintTransformer`), by one of its
/// two blends: ``BlendMode/sourceIn``, SDWebImage's default since 5.20, or
/// ``BlendMode/sourceAtop``, its blend before.
///
/// Each visible pixel's colour moves ``fraction`` of the way to the blend's result; a fraction
/// of 1 with an opaque tint paints the image's shape in the tint colour, either way.
public struct TintTransformer: ImageTransformer {
    /// How the tint is laid over the image (Core Graphics' blend modes of the same names).
    public enum BlendMode: String, Sendable, Hashable, CaseIterable {
        /// The tint where the image is: its colour, alpha the image's times the tint's
        /// (SDWebImage's default since 5.20).
        case sourceIn
        /// The tint over the image, kept within its shape: colours move by the tint's alpha,
        /// the image's alpha is kept (SDWebImage's blend before 5.20).
        case sourceAtop
    }

    /// The tint colour.
    public let color: RGBA
    /// How far colours move towards the tint, 0…1.
    public let fraction: Double
    /// How the tint is laid over the image.
    public let blendMode: BlendMode

    /// A tint with `color`, blended by `blendMode` (source-in, SDWebImage's default) and `fraction` (clamped to 0…1).
    public init(color: RGBA, fraction: Double = 1, blendMode: BlendMode = .sourceIn) {
        self.color = color
        self.fraction = fraction.isFinite ? min(max(fraction, 0), 1) : 1
        self.blendMode = blendMode
    }

    /// `tint(#RRGGBBAA,0.5)`, with `,sourceAtop` after it for that blend.
    public var key: String {
        "tint(\(TransformerKey.colour(color)),\(TransformerKey.number(fraction))" + (blendMode == .sourceIn ? ")" : ",\(blendMode.rawValue))")
    }

    /// Every frame tinted; nil when the tint would change nothing.
    public func transform(_ image: Image, forKey key: String) -> Image? {
        let share = Float(fraction), tintAlpha = Float(color.a) / 255
        let moves = blendMode == .sourceIn ? share : share * tintAlpha
        guard moves > 0 else { return nil }
        // Source-in also scales alpha by the tint's; source-atop keeps it.
        let alphaScale = blendMode == .sourceIn ? 1 - share * (1 - tintAlpha) : 1
        let tint = SIMD4<Float>(Float(color.r), Float(color.g), Float(color.b), 0)
        return image.mappingFrames { pixels in
            var out = pixels
            out.bytes.withUnsafeMutableBytes { bytes in
                for i in stride(from: 0, to: bytes.count, by: 4) {
                    let pixel = SIMD4<Float>(bytes.loadUnaligned(fromByteOffset: i, as: SIMD4<UInt8>.self))
                    let mixed = pixel + (tint - pixel) * moves + 0.5
                    bytes[i] = UInt8(mixed.x)
                    bytes[i + 1] = UInt8(mixed.y)
                    bytes[i + 2] = UInt8(mixed.z)
                    bytes[i + 3] = UInt8(pixel.w * alphaScale + 0.5)
                }
            }
            return out
        }
    }
}

extension ImageTransformer where Self == TintTransformer {
    /// Tints towards `color` by `fraction` (1: fully), blended by `blendMode` (source-in, SDWebImage's default).
    public static func tint(_ color: RGBA, fraction: Double = 1, blendMode: TintTransformer.BlendMode = .sourceIn) -> TintTransformer {
        TintTransformer(color: color, fraction: fraction, blendMode: blendMode)
    }
}
