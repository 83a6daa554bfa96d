import Foundation

/// Rotates every frame by any angle, counter-clockwise for a positive angle (SDWebImage's
/// `SDImageRotationTransformer`).
///
/// With ``fitSize`` the canvas grows to hold the whole rotated image; without it the canvas
/// keeps the original size and the corners that leave it are cut off. Uncovered canvas is
/// transparent. Quarter turns that fit move pixels exactly; other angles sample the source
/// bilinearly (on premultiplied colour), which also anti-aliases the rotated edges.
public struct RotationTransformer: ImageTransformer {
    /// The angle in radians; positive turns counter-clockwise.
    public let radians: Double
    /// Whether the canvas grows to hold the whole rotated image.
    public let fitSize: Bool

    /// A rotation by `radians`, counter-clockwise when positive.
    public init(radians: Double, fitSize: Bool = true) {
        self.radians = radians.isFinite ? radians : 0
        self.fitSize = fitSize
    }

    /// The angle in degrees.
    public var degrees: Double { radians * 180 / .pi }

    /// `rotate(90deg,fit)` or `rotate(30deg,crop)`.
    public var key: String { "rotate(\(TransformerKey.number(degrees))deg,\(fitSize ? "fit" : "crop"))" }

    /// Every frame rotated; nil for an image without pixels.
    public func transform(_ image: Image, forKey key: String) -> Image? {
        guard image.pixelWidth > 0, image.pixelHeight > 0 else { return nil }
        return image.mappingFrames(rotate)
    }

    private func rotate(_ pixels: PixelBuffer) -> PixelBuffer {
        let turns = degrees.truncatingRemainder(dividingBy: 360) / 90
        let quarter = turns.rounded()
        if abs(turns - quarter) < 1e-9 && (fitSize || pixels.width == pixels.height || Int(quarter) % 2 == 0) {
            switch ((Int(quarter) % 4) + 4) % 4 {
            case 1: return pixels.applying(.left)
            case 2: return pixels.applying(.down)
            case 3: return pixels.applying(.right)
            default: return pixels
            }
        }
        return sample(pixels)
    }

    /// The rotation by inverse mapping: each output pixel's centre, turned back by the angle,
    /// lands somewhere in the source, which is sampled bilinearly there.
    private func sample(_ pixels: PixelBuffer) -> PixelBuffer {
        let c = cos(radians), s = sin(radians)
        let width = Double(pixels.width), height = Double(pixels.height)
        var outWidth = pixels.width, outHeight = pixels.height
        if fitSize {
            // A hair under the exact extent, so 1e-12 of rounding error does not add a column.
            outWidth = PixelSize.side(abs(width * c) + abs(height * s) - 1e-6, rounding: .up)
            outHeight = PixelSize.side(abs(width * s) + abs(height * c) - 1e-6, rounding: .up)
        }
        var out = [UInt8](repeating: 0, count: outWidth * outHeight * 4)
        pixels.bytes.withUnsafeBytes { source in
            out.withUnsafeMutableBytes { destination in
                let src = source.baseAddress!, dst = destination.baseAddress!
                func texel(_ x: Int, _ y: Int) -> SIMD4<Float> {
                    guard x >= 0, y >= 0, x < pixels.width, y < pixels.height else { return SIMD4<Float>() }
                    return PremultipliedRGBA.load(src, at: (y * pixels.width + x) * 4)
                }
                for oy in 0..<outHeight {
                    let dy = Double(oy) + 0.5 - Double(outHeight) / 2
                    for ox in 0..<outWidth {
                        let dx = Double(ox) + 0.5 - Double(outWidth) / 2
                        // Source position of this pixel's centre, in pixel-centre coordinates.
                        let u = dx * c - dy * s + width / 2 - 0.5
                        let v = dx * s + dy * c + height / 2 - 0.5
                        guard u > -1, v > -1, u < width, v < height else { continue }
                        let x0 = Int(u.rounded(.down)), y0 = Int(v.rounded(.down))
                        let fx = Float(u - Double(x0)), fy = Float(v - Double(y0))
                        let top = texel(x0, y0) * (1 - fx) + texel(x0 + 1, y0) * fx
                        let bottom = texel(x0, y0 + 1) * (1 - fx) + texel(x0 + 1, y0 + 1) * fx
                        PremultipliedRGBA.store(top * (1 - fy) + bottom * fy, to: dst, at: (oy * outWidth + ox) * 4)
                    }
                }
            }
        }
        return PixelBuffer(width: outWidth, height: outHeight, bytes: out)
    }
}

extension ImageTransformer where Self == RotationTransformer {
    /// Rotates by `radians`, counter-clockwise when positive; `fitSize` grows the canvas to
    /// hold the whole result.
    public static func rotate(radians: Double, fitSize: Bool = true) -> RotationTransformer {
        RotationTransformer(radians: radians, fitSize: fitSize)
    }

    /// Rotates by `degrees`, counter-clockwise when positive; `fitSize` grows the canvas to
    /// hold the whole result.
    public static func rotate(degrees: Double, fitSize: Bool = true) -> RotationTransformer {
        RotationTransformer(radians: degrees * .pi / 180, fitSize: fitSize)
    }
}
