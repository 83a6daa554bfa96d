extension PixelBuffer {
    /// `layer` composited over these pixels with its top-left corner at `origin` ("source
    /// over", colours not premultiplied), its alpha times `opacity`, clipped to these pixels:
    /// how a watermark or a nine-patch frame is laid.
    mutating func composite(_ layer: PixelBuffer, at origin: (x: Int, y: Int), opacity: Double = 1) {
        let visible = PixelRect(x: origin.x, y: origin.y, width: layer.width, height: layer.height)
            .intersection(PixelRect(x: 0, y: 0, width: width, height: height))
        guard !visible.isEmpty else { return }
        let width = width, layerWidth = layer.width
        layer.bytes.withUnsafeBufferPointer { source in
            bytes.withUnsafeMutableBufferPointer { destination in
                for row in visible.y..<(visible.y + visible.height) {
                    for column in visible.x..<(visible.x + visible.width) {
                        let from = ((row - origin.y) * layerWidth + (column - origin.x)) * 4
                        let to = (row * width + column) * 4
                        let layerAlpha = Double(source[from + 3]) / 255 * opacity
                        guard layerAlpha > 0 else { continue }
                        let alphaBelow = Double(destination[to + 3]) / 255
                        let alpha = layerAlpha + alphaBelow * (1 - layerAlpha)
                        for channel in 0..<3 {
                            let value = (Double(source[from + channel]) * layerAlpha
                                + Double(destination[to + channel]) * alphaBelow * (1 - layerAlpha)) / alpha
                            destination[to + channel] = UInt8(min(255, max(0, value.rounded())))
                        }
                        destination[to + 3] = UInt8(min(255, max(0, (alpha * 255).rounded())))
                    }
                }
            }
        }
    }

    /// FNV-1a over the pixels' bytes: stable across runs, unlike `hashValue`, so a transformer
    /// key naming these pixels stays the same between processes.
    var contentDigest: UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return hash
    }
}
