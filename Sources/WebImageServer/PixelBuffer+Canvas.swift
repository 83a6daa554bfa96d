import WebImage

extension PixelBuffer {
    /// These pixels placed with their top-left corner at `origin` on a canvas of `size` filled
    /// with `fill`; what falls outside the canvas is cut off.
    func placed(on size: PixelSize, at origin: (x: Int, y: Int), fill: RGBA) -> PixelBuffer {
        var canvas = PixelBuffer(width: size.width, height: size.height, fill: fill)
        let visible = PixelRect(x: origin.x, y: origin.y, width: width, height: height)
            .intersection(PixelRect(x: 0, y: 0, width: size.width, height: size.height))
        guard !visible.isEmpty else { return canvas }
        let rowBytes = visible.width * 4
        bytes.withUnsafeBufferPointer { source in
            canvas.bytes.withUnsafeMutableBufferPointer { destination in
                for row in 0..<visible.height {
                    let from = ((visible.y - origin.y + row) * width + (visible.x - origin.x)) * 4
                    let to = ((visible.y + row) * size.width + visible.x) * 4
                    (destination.baseAddress! + to).update(from: source.baseAddress! + from, count: rowBytes)
                }
            }
        }
        return canvas
    }

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
