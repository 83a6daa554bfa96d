/// An image as a palette and, for each pixel, an index into it: what a ``PaletteQuantizer``
/// makes of a ``PixelBuffer`` for a format that stores palettes (PNG's colour type 3).
public struct IndexedPixels: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// The colours, 1 to 256, non-premultiplied, each with its own alpha.
    public let palette: [RGBA]
    /// The palette index of each pixel, rows top to bottom; every one is below `palette.count`.
    public let indices: [UInt8]

    /// The indexed image, or nil when the parts do not fit together: no pixels, `indices`
    /// not `width × height` long, a palette of no colour or more than 256, or an index past it.
    public init?(width: Int, height: Int, palette: [RGBA], indices: [UInt8]) {
        let area = width.multipliedReportingOverflow(by: height)
        guard width > 0, height > 0, !area.overflow, area.partialValue == indices.count,
              (1...256).contains(palette.count), indices.allSatisfy({ Int($0) < palette.count })
        else { return nil }
        self.width = width
        self.height = height
        self.palette = palette
        self.indices = indices
    }

    /// The pixels each index stands for.
    public var pixels: PixelBuffer {
        var bytes = [UInt8](repeating: 0, count: indices.count * 4)
        for (pixel, index) in indices.enumerated() {
            let colour = palette[Int(index)]
            bytes[pixel * 4] = colour.r
            bytes[pixel * 4 + 1] = colour.g
            bytes[pixel * 4 + 2] = colour.b
            bytes[pixel * 4 + 3] = colour.a
        }
        return PixelBuffer(width: width, height: height, bytes: bytes)
    }
}
