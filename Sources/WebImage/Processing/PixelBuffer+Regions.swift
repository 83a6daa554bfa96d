extension PixelBuffer {
    /// The pixels inside `rect` clipped to the buffer (an empty buffer when they do not overlap).
    public func cropped(to rect: PixelRect) -> PixelBuffer {
        let rect = rect.intersection(PixelRect(x: 0, y: 0, width: width, height: height))
        if rect.x == 0 && rect.y == 0 && rect.width == width && rect.height == height { return self }
        var out = [UInt8](repeating: 0, count: rect.width * rect.height * 4)
        let rowBytes = rect.width * 4
        bytes.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { destination in
                for row in 0..<rect.height {
                    let from = ((rect.y + row) * width + rect.x) * 4
                    (destination.baseAddress! + row * rowBytes)
                        .update(from: source.baseAddress! + from, count: rowBytes)
                }
            }
        }
        return PixelBuffer(width: rect.width, height: rect.height, bytes: out)
    }

    /// These pixels centred on a transparent canvas of `size` (at least as large as they are).
    func centred(in size: PixelSize) -> PixelBuffer {
        precondition(size.width >= width && size.height >= height, "canvas smaller than the pixels")
        if size.width == width && size.height == height { return self }
        return placed(on: size, at: ((size.width - width) / 2, (size.height - height) / 2), fill: RGBA(r: 0, g: 0, b: 0, a: 0))
    }

    /// These pixels placed with their top-left corner at `origin` on a canvas of `size` filled
    /// with `fill`; what falls outside the canvas is cut off.
    public func placed(on size: PixelSize, at origin: (x: Int, y: Int), fill: RGBA) -> PixelBuffer {
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

    /// These pixels composited over `canvas` with their top-left corner at `origin` (source
    /// over, colours not premultiplied); what falls outside the canvas is cut off. thumbor's
    /// `fill(blur)` pastes the image so onto its blurred copy.
    public func drawn(over canvas: PixelBuffer, at origin: (x: Int, y: Int)) -> PixelBuffer {
        var out = canvas
        let visible = PixelRect(x: origin.x, y: origin.y, width: width, height: height)
            .intersection(PixelRect(x: 0, y: 0, width: canvas.width, height: canvas.height))
        guard !visible.isEmpty else { return out }
        bytes.withUnsafeBufferPointer { source in
            out.bytes.withUnsafeMutableBufferPointer { destination in
                for y in visible.y..<(visible.y + visible.height) {
                    for x in visible.x..<(visible.x + visible.width) {
                        let from = ((y - origin.y) * width + (x - origin.x)) * 4, to = (y * canvas.width + x) * 4
                        let alpha = Int(source[from + 3]), below = Int(destination[to + 3]) * (255 - alpha) / 255
                        let total = alpha + below
                        guard total > 0 else { continue }
                        for channel in 0..<3 {
                            let mixed = Int(source[from + channel]) * alpha + Int(destination[to + channel]) * below
                            destination[to + channel] = UInt8((mixed + total / 2) / total)
                        }
                        destination[to + 3] = UInt8(total)
                    }
                }
            }
        }
        return out
    }
}
