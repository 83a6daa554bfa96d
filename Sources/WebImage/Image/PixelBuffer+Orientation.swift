extension PixelBuffer {
    /// The pixels turned upright: what a viewer shows for a file stored with `orientation`.
    public func applying(_ orientation: ImageOrientation) -> PixelBuffer {
        if orientation == .up { return self }
        let (w, h) = (width, height)
        let (outW, outH) = orientation.swapsDimensions ? (h, w) : (w, h)
        var out = [UInt8](repeating: 0, count: bytes.count)
        bytes.withUnsafeBytes { src in
            out.withUnsafeMutableBytes { dst in
                let s = src.bindMemory(to: UInt32.self)
                let d = dst.bindMemory(to: UInt32.self)
                for y in 0..<h {
                    for x in 0..<w {
                        // Where the stored pixel (x, y) lands in the upright image.
                        let (ox, oy): (Int, Int)
                        switch orientation {
                        case .up: (ox, oy) = (x, y)
                        case .upMirrored: (ox, oy) = (w - 1 - x, y)
                        case .down: (ox, oy) = (w - 1 - x, h - 1 - y)
                        case .downMirrored: (ox, oy) = (x, h - 1 - y)
                        case .leftMirrored: (ox, oy) = (y, x)
                        case .right: (ox, oy) = (h - 1 - y, x)
                        case .rightMirrored: (ox, oy) = (h - 1 - y, w - 1 - x)
                        case .left: (ox, oy) = (y, w - 1 - x)
                        }
                        d[oy * outW + ox] = s[y * w + x]
                    }
                }
            }
        }
        return PixelBuffer(width: outW, height: outH, bytes: out)
    }
}
