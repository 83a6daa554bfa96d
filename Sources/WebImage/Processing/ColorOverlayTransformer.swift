import Foundation

/// Lays a colour over every frame, evenly or as a linear gradient from transparent to the
/// colour (imgproxy's `colorize` and `gradient`).
///
/// The overlay is composited over the image (source-over, unpremultiplied): where the image is
/// transparent the overlay shows, so alpha grows, unless ``keepsAlpha`` (colorize's
/// `keep_alpha`), which mixes the colour into each pixel and leaves its alpha alone.
public struct ColorOverlayTransformer: ImageTransformer, Hashable {
    /// The overlay's colour (its alpha is not read: ``opacity`` is).
    public let color: RGBA
    /// The overlay's opacity, 0…1; 0 changes nothing.
    public let opacity: Double
    /// Whether each pixel keeps its alpha.
    public let keepsAlpha: Bool
    /// Where the overlay grows from transparent (0) to ``opacity`` (1), or nil for an even overlay.
    public let gradient: LinearRamp?

    /// An overlay of `color` at `opacity` (clamped to 0…1; not finite is 0).
    public init(color: RGBA, opacity: Double, keepsAlpha: Bool = false, gradient: LinearRamp? = nil) {
        self.color = color
        self.opacity = opacity.isFinite ? min(max(opacity, 0), 1) : 0
        self.keepsAlpha = keepsAlpha
        self.gradient = gradient
    }

    /// `overlay(#RRGGBBAA,0.5,keep)` or `overlay(#RRGGBBAA,0.5,gradient(90,0,1))`.
    public var key: String {
        var parts = [TransformerKey.colour(color), TransformerKey.number(opacity)]
        if keepsAlpha { parts.append("keep") }
        if let gradient {
            parts.append("gradient(\(gradient.key))")
        }
        return "overlay(\(parts.joined(separator: ",")))"
    }

    /// Every frame under the overlay; nil at opacity 0.
    public func transform(_ image: Image, forKey key: String) -> Image? {
        guard opacity > 0 else { return nil }
        return image.mappingFrames(overlaid)
    }

    private func overlaid(_ pixels: PixelBuffer) -> PixelBuffer {
        var out = pixels
        let width = pixels.width, height = pixels.height
        guard width > 0, height > 0 else { return out }
        let tint = SIMD3<Float>(Float(color.r), Float(color.g), Float(color.b))
        // The overlay's opacity at a pixel: even, or its place along the gradient's direction.
        let ramp = gradient?.values(width: width, height: height)
        let coverage: (Int, Int) -> Float = { x, y in Float((ramp?(x, y) ?? 1) * opacity) }
        out.bytes.withUnsafeMutableBufferPointer { bytes in
            for y in 0..<height {
                for x in 0..<width {
                    let alpha = coverage(x, y)
                    guard alpha > 0 else { continue }
                    let i = (y * width + x) * 4
                    let colour = SIMD3<Float>(Float(bytes[i]), Float(bytes[i + 1]), Float(bytes[i + 2]))
                    let below = Float(bytes[i + 3]) / 255
                    let mixed: SIMD3<Float>
                    if keepsAlpha {
                        mixed = colour + (tint - colour) * alpha
                    } else {
                        let covered = alpha + below * (1 - alpha)
                        mixed = (tint * alpha + colour * below * (1 - alpha)) / covered
                        bytes[i + 3] = UInt8(min(max((covered * 255).rounded(), 0), 255))
                    }
                    bytes[i] = UInt8(min(max(mixed.x.rounded(), 0), 255))
                    bytes[i + 1] = UInt8(min(max(mixed.y.rounded(), 0), 255))
                    bytes[i + 2] = UInt8(min(max(mixed.z.rounded(), 0), 255))
                }
            }
        }
        return out
    }
}

extension ImageTransformer where Self == ColorOverlayTransformer {
    /// `color` laid evenly over the image at `opacity` (imgproxy's `colorize`).
    public static func colorize(_ color: RGBA, opacity: Double, keepsAlpha: Bool = false) -> ColorOverlayTransformer {
        ColorOverlayTransformer(color: color, opacity: opacity, keepsAlpha: keepsAlpha)
    }

    /// A gradient from transparent to `color` at `opacity` (imgproxy's `gradient`).
    public static func gradient(_ color: RGBA, opacity: Double, _ gradient: LinearRamp = LinearRamp()) -> ColorOverlayTransformer {
        ColorOverlayTransformer(color: color, opacity: opacity, gradient: gradient)
    }
}
