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
        var canvas = [UInt8](repeating: 0, count: size.width * size.height * 4)
        let left = (size.width - width) / 2, top = (size.height - height) / 2
        let rowBytes = width * 4
        bytes.withUnsafeBufferPointer { source in
            canvas.withUnsafeMutableBufferPointer { destination in
                for row in 0..<height {
                    (destination.baseAddress! + ((top + row) * size.width + left) * 4)
                        .update(from: source.baseAddress! + row * rowBytes, count: rowBytes)
                }
            }
        }
        return PixelBuffer(width: size.width, height: size.height, bytes: canvas)
    }
}
