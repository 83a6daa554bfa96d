import Foundation

/// Lays a colour over every frame, evenly or as a linear gradient from transparent to the
/// colour (imgproxy's `colorize` and `gradient`).
///
/// The overlay is composited over the image (source-over, unpremultiplied): where the image is
/// transparent the overlay shows, so alpha grows, unless ``keepsAlpha`` (colorize's
/// `keep_alpha`), which mixes the colour into each pixel and leaves its alpha alone.
public struct ColorOverlayTransformer: ImageTransformer, Hashable {
    /// Where a gradient overlay is transparent and where it is opaque.
    public struct Gradient: Sendable, Hashable {
        /// The direction, in degrees clockwise, in which the overlay grows opaque: 0 from the top
        /// (transparent) down to the bottom (opaque), 90 from the right to the left, 180 up,
        /// 270 from the left to the right (imgproxy's `down`, `left`, `up`, `right`).
        public var angle: Double
        /// Where along that direction the overlay starts to show, 0…1 of the image's extent.
        public var start: Double
        /// Where it reaches the overlay's opacity, 0…1; past it the overlay is even.
        public var stop: Double

        /// A gradient growing opaque toward `angle`, from `start` to `stop`.
        public init(angle: Double = 0, start: Double = 0, stop: Double = 1) {
            self.angle = angle.isFinite ? angle : 0
            self.start = start.isFinite ? start : 0
            self.stop = stop.isFinite ? stop : 1
        }
    }

    /// The overlay's colour (its alpha is not read: ``opacity`` is).
    public let color: RGBA
    /// The overlay's opacity, 0…1; 0 changes nothing.
    public let opacity: Double
    /// Whether each pixel keeps its alpha.
    public let keepsAlpha: Bool
    /// The gradient, or nil for an even overlay.
    public let gradient: Gradient?

    /// An overlay of `color` at `opacity` (clamped to 0…1; not finite is 0).
    public init(color: RGBA, opacity: Double, keepsAlpha: Bool = false, gradient: Gradient? = nil) {
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
            parts.append("gradient(\([gradient.angle, gradient.start, gradient.stop].map(TransformerKey.number).joined(separator: ",")))")
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
        let coverage: (Int, Int) -> Float
        if let gradient {
            let radians = gradient.angle * .pi / 180
            let direction = (x: -sin(radians), y: cos(radians))
            let extent = abs(Double(width) * direction.x) + abs(Double(height) * direction.y)
            let span = gradient.stop - gradient.start
            coverage = { x, y in
                let along = ((Double(x) + 0.5 - Double(width) / 2) * direction.x + (Double(y) + 0.5 - Double(height) / 2) * direction.y) / extent + 0.5
                let share = span > 0 ? (along - gradient.start) / span : (along >= gradient.start ? 1 : 0)
                return Float(min(max(share, 0), 1) * opacity)
            }
        } else {
            coverage = { _, _ in Float(opacity) }
        }
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
    public static func gradient(_ color: RGBA, opacity: Double, _ gradient: ColorOverlayTransformer.Gradient = .init()) -> ColorOverlayTransformer {
        ColorOverlayTransformer(color: color, opacity: opacity, gradient: gradient)
    }
}
