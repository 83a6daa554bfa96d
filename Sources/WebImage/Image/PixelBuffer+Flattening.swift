extension PixelBuffer {
    /// These pixels composited over an opaque `background`: every pixel becomes opaque, a
    /// transparent one takes the background's colour. Used to write a format without alpha
    /// (``ImageEncodeOptions/backgroundColor``) and by the server's background options.
    public func flattened(onto background: RGBA) -> PixelBuffer {
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
