/// Maps every frame onto a two-colour ramp, keeping alpha (imgproxy's `duotone` and
/// `monochrome`): each pixel's Rec. 601 luma picks its place between ``dark`` (black) and
/// ``light`` (white), and the result is mixed with the original by ``intensity``.
///
/// At an intensity of 1 every pixel lies on the line between the two colours; a monochrome
/// image is the ramp from black to one colour, so that each pixel is a shade of it.
public struct DuotoneTransformer: ImageTransformer, Hashable {
    /// The colour of black.
    public let dark: RGBA
    /// The colour of white.
    public let light: RGBA
    /// How much of the effect is kept, 0…1: 0 changes nothing, 1 is the ramp alone.
    public let intensity: Double

    /// A duotone from `dark` to `light` at `intensity` (clamped to 0…1; not finite is 0).
    public init(dark: RGBA, light: RGBA, intensity: Double = 1) {
        self.dark = dark
        self.light = light
        self.intensity = intensity.isFinite ? min(max(intensity, 0), 1) : 0
    }

    /// `duotone(#RRGGBBAA,#RRGGBBAA,0.5)`.
    public var key: String {
        "duotone(\(TransformerKey.colour(dark)),\(TransformerKey.colour(light)),\(TransformerKey.number(intensity)))"
    }

    /// Every frame on the ramp; nil at intensity 0.
    public func transform(_ image: Image, forKey key: String) -> Image? {
        guard intensity > 0 else { return nil }
        let low = SIMD3<Float>(Float(dark.r), Float(dark.g), Float(dark.b))
        let span = SIMD3<Float>(Float(light.r), Float(light.g), Float(light.b)) - low
        let amount = Float(intensity)
        return image.mappingFrames { pixels in
            var out = pixels
            out.bytes.withUnsafeMutableBufferPointer { bytes in
                for i in stride(from: 0, to: bytes.count - 3, by: 4) {
                    let colour = SIMD3<Float>(Float(bytes[i]), Float(bytes[i + 1]), Float(bytes[i + 2]))
                    let luma = (0.299 * colour.x + 0.587 * colour.y + 0.114 * colour.z) / 255
                    let mixed = colour + (low + span * luma - colour) * amount
                    bytes[i] = UInt8(min(max(mixed.x.rounded(), 0), 255))
                    bytes[i + 1] = UInt8(min(max(mixed.y.rounded(), 0), 255))
                    bytes[i + 2] = UInt8(min(max(mixed.z.rounded(), 0), 255))
                }
            }
            return out
        }
    }
}

extension ImageTransformer where Self == DuotoneTransformer {
    /// Dark areas toward `dark`, light ones toward `light`, by `intensity` (imgproxy's `duotone`).
    public static func duotone(dark: RGBA, light: RGBA, intensity: Double = 1) -> DuotoneTransformer {
        DuotoneTransformer(dark: dark, light: light, intensity: intensity)
    }

    /// Every pixel a shade of `color`, from black, by `intensity` (imgproxy's `monochrome`,
    /// whose default colour is `b3b3b3`).
    public static func monochrome(_ color: RGBA = RGBA(r: 0xB3, g: 0xB3, b: 0xB3), intensity: Double = 1) -> DuotoneTransformer {
        DuotoneTransformer(dark: RGBA(r: 0, g: 0, b: 0), light: color, intensity: intensity)
    }
}
