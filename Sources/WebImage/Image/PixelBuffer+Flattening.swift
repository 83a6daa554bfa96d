extension PixelBuffer {
    /// These pixels composited over `background`: over an opaque one every pixel becomes
    /// opaque, a transparent one taking the background's colour; over a translucent one (the
    /// server's `background_alpha`) each pixel becomes as opaque as the two together. Used to
    /// write a format without alpha (``ImageEncodeOptions/backgroundColor``) and by the server's
    /// background options.
    public func flattened(onto background: RGBA) -> PixelBuffer {
        guard background.a == 255 else { return composited(over: background) }
        var out = self
        let back = [UInt32(background.r), UInt32(background.g), UInt32(background.b)]
        out.bytes.withUnsafeMutableBufferPointer { pixels in
            for offset in stride(from: 0, to: pixels.count, by: 4) {
                let alpha = UInt32(pixels[offset + 3])
                guard alpha < 255 else { continue }
                for channel in 0..<3 {
                    let value = UInt32(pixels[offset + channel]) * alpha + back[channel] * (255 - alpha)
                    pixels[offset + channel] = UInt8((value + 127) / 255)
                }
                pixels[offset + 3] = 255
            }
        }
        return out
    }

    /// The buffer composited over a translucent `background` (source-over, unpremultiplied):
    /// alpha becomes `a + b(1 − a)`, so the result is as opaque as the two together.
    private func composited(over background: RGBA) -> PixelBuffer {
        var out = self
        let back = SIMD3<Float>(Float(background.r), Float(background.g), Float(background.b)), backAlpha = Float(background.a) / 255
        out.bytes.withUnsafeMutableBufferPointer { pixels in
            for offset in stride(from: 0, to: pixels.count - 3, by: 4) {
                let alpha = Float(pixels[offset + 3]) / 255
                guard alpha < 1 else { continue }
                let covered = alpha + backAlpha * (1 - alpha)
                guard covered > 0 else { continue }
                let colour = SIMD3<Float>(Float(pixels[offset]), Float(pixels[offset + 1]), Float(pixels[offset + 2]))
                let mixed = (colour * alpha + back * backAlpha * (1 - alpha)) / covered
                pixels[offset] = UInt8(min(max(mixed.x.rounded(), 0), 255))
                pixels[offset + 1] = UInt8(min(max(mixed.y.rounded(), 0), 255))
                pixels[offset + 2] = UInt8(min(max(mixed.z.rounded(), 0), 255))
                pixels[offset + 3] = UInt8(min(max((covered * 255).rounded(), 0), 255))
            }
        }
        return out
    }

    /// The mean red, green and blue of every pixel (alpha ignored, each rounded down), opaque:
    /// thumbor's `fill(auto)` colour.
    public var averageColour: RGBA {
        var sums = [0, 0, 0]
        bytes.withUnsafeBufferPointer { bytes in
            for i in stride(from: 0, to: bytes.count - 3, by: 4) {
                sums[0] += Int(bytes[i])
                sums[1] += Int(bytes[i + 1])
                sums[2] += Int(bytes[i + 2])
            }
        }
        let count = max(width * height, 1)
        return RGBA(r: UInt8(sums[0] / count), g: UInt8(sums[1] / count), b: UInt8(sums[2] / count))
    }
}
