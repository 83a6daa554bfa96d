import WebImage

extension PixelBuffer {
    /// These pixels composited over an opaque `background`: every pixel becomes opaque, a
    /// transparent one takes the background's colour.
    func flattened(onto background: RGBA) -> PixelBuffer {
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
}
