/// Turns every frame into blocks of `size` × `size` pixels from the top left corner, each the
/// average of the pixels it covers (imgproxy's `pixelate`); blocks at the right and bottom edges
/// may be smaller. Colours are averaged weighted by alpha, so transparent pixels add no colour.
public struct PixelatingTransformer: ImageTransformer {
    /// The side of a block in pixels.
    public let size: Int

    /// Blocks of `size` pixels.
    public init(size: Int) {
        self.size = max(0, size)
    }

    /// `pixelate(8)`.
    public var key: String { "pixelate(\(size))" }

    /// Every frame in blocks; nil for blocks of one pixel or less.
    public func transform(_ image: Image, forKey key: String) -> Image? {
        guard size > 1, image.pixelWidth > 0, image.pixelHeight > 0 else { return nil }
        return image.mappingFrames(pixelated)
    }

    private func pixelated(_ frame: PixelBuffer) -> PixelBuffer {
        var out = frame
        let width = frame.width, height = frame.height
        out.bytes.withUnsafeMutableBufferPointer { pixels in
            for top in stride(from: 0, to: height, by: size) {
                for left in stride(from: 0, to: width, by: size) {
                    let rows = top..<min(top + size, height), columns = left..<min(left + size, width)
                    var sums = [0, 0, 0, 0]
                    for y in rows {
                        for x in columns {
                            let offset = (y * width + x) * 4, alpha = Int(pixels[offset + 3])
                            for channel in 0..<3 { sums[channel] += Int(pixels[offset + channel]) * alpha }
                            sums[3] += alpha
                        }
                    }
                    let count = rows.count * columns.count, alpha = sums[3]
                    let colour = (0..<3).map { alpha == 0 ? 0 : UInt8((sums[$0] + alpha / 2) / alpha) }
                    let meanAlpha = UInt8((alpha + count / 2) / count)
                    for y in rows {
                        for x in columns {
                            let offset = (y * width + x) * 4
                            pixels[offset] = colour[0]
                            pixels[offset + 1] = colour[1]
                            pixels[offset + 2] = colour[2]
                            pixels[offset + 3] = meanAlpha
                        }
                    }
                }
            }
        }
        return out
    }
}

extension ImageTransformer where Self == PixelatingTransformer {
    /// Pixelates into blocks of `size` pixels.
    public static func pixelate(size: Int) -> PixelatingTransformer {
        PixelatingTransformer(size: size)
    }
}
