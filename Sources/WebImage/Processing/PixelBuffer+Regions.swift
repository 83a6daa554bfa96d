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
}
