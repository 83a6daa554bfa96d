/// Lays a mark (a logo, a copyright line) over every frame at a given opacity: once at a
/// position, tiled over the whole frame, or in a grid of copies. The mark's own transparency is kept and multiplied
/// by the opacity; the frame keeps its size. imgproxy's `watermark` option and
/// thumbor's `watermark` filter composite this way.
public struct WatermarkTransformer: ImageTransformer {
    /// The mark's pixels, laid over the frames as they are (scale them before).
    public let mark: PixelBuffer
    /// Where the mark goes.
    public let placement: WatermarkPlacement
    /// How opaque the mark is, 0…1, on top of its own alpha.
    public let opacity: Double

    /// Lays `mark` at `placement` with `opacity` (clamped to 0…1).
    public init(mark: PixelBuffer, placement: WatermarkPlacement, opacity: Double = 1) {
        self.mark = mark
        self.placement = placement
        self.opacity = opacity.isNaN ? 0 : min(max(opacity, 0), 1)
    }

    /// `watermark(<digest>,<w>x<h>,<placement>,<opacity>)`: the digest of the mark's pixels
    /// (worked out here, not when the transformer is made) changes when the mark does.
    public var key: String {
        let position: String = switch placement {
        case let .at(x, y): "at:\(x):\(y)"
        case let .tiled(x, y): "tiled:\(x):\(y)"
        case let .grid(x, y, stepX, stepY, columns, rows): "grid:\(x):\(y):\(stepX):\(stepY):\(columns):\(rows)"
        }
        let digest = String(Self.digest(of: mark), radix: 16)
        return "watermark(\(digest),\(mark.width)x\(mark.height),\(position),\(TransformerKey.number(opacity)))"
    }

    /// Every frame with the mark over it; nil when the mark is empty or fully transparent.
    public func transform(_ image: Image, forKey key: String) -> Image? {
        guard opacity > 0, mark.width > 0, mark.height > 0 else { return nil }
        return image.mappingFrames(marked)
    }

    /// `frame` with the mark laid at every copy of the placement that reaches the frame
    /// (visited one by one, never listed: a one-pixel mark tiles a large frame in its pixel
    /// count of steps, and copies outside the frame cost nothing).
    private func marked(_ frame: PixelBuffer) -> PixelBuffer {
        var out = frame
        let columns = Self.copies(of: mark.width, along: frame.width, in: placement, horizontal: true)
        let rows = Self.copies(of: mark.height, along: frame.height, in: placement, horizontal: false)
        for top in rows {
            for left in columns {
                lay(on: &out, at: (left, top))
            }
        }
        return out
    }

    /// The positions along one side (`length` pixels) where copies of a mark `size` pixels long
    /// start and reach the frame.
    private static func copies(of size: Int, along length: Int, in placement: WatermarkPlacement,
                               horizontal: Bool) -> StrideTo<Int> {
        let first: Int, step: Int, count: Int
        switch placement {
        case let .at(x, y):
            (first, step, count) = (horizontal ? x : y, 1, 1)
        case let .tiled(spacingX, spacingY):
            let spacing = max(0, horizontal ? spacingX : spacingY)
            step = size + spacing
            first = spacing / 2
            count = (length + step - 1) / step
        case let .grid(x, y, stepX, stepY, columns, rows):
            (first, step, count) = horizontal ? (x, stepX, columns) : (y, stepY, rows)
        }
        guard count > 0 else { return stride(from: 0, to: 0, by: 1) }
        guard step > 0 else {
            // Every copy on the first one (or going back from it): only the first is seen once.
            let start = step == 0 ? first : first + step * (count - 1)
            return start + size > 0 && start < length ? stride(from: start, to: start + 1, by: 1) : stride(from: 0, to: 0, by: 1)
        }
        // The first copy that reaches the frame, and the end of those that start inside it.
        let skipped = first + size > 0 ? 0 : (-(first + size) / step + 1)
        let last = min(count, length - first <= 0 ? 0 : (length - first + step - 1) / step)
        guard skipped < last else { return stride(from: 0, to: 0, by: 1) }
        return stride(from: first + skipped * step, to: first + last * step, by: step)
    }

    /// The mark composited over `frame` with its top-left corner at `origin` ("source over",
    /// colours not premultiplied), clipped to the frame.
    private func lay(on frame: inout PixelBuffer, at origin: (x: Int, y: Int)) {
        let visible = PixelRect(x: origin.x, y: origin.y, width: mark.width, height: mark.height)
            .intersection(PixelRect(x: 0, y: 0, width: frame.width, height: frame.height))
        guard !visible.isEmpty else { return }
        let frameWidth = frame.width, markWidth = mark.width, opacity = opacity
        mark.bytes.withUnsafeBufferPointer { source in
            frame.bytes.withUnsafeMutableBufferPointer { destination in
                for row in visible.y..<(visible.y + visible.height) {
                    for column in visible.x..<(visible.x + visible.width) {
                        let from = ((row - origin.y) * markWidth + (column - origin.x)) * 4
                        let to = (row * frameWidth + column) * 4
                        let markAlpha = Double(source[from + 3]) / 255 * opacity
                        guard markAlpha > 0 else { continue }
                        let frameAlpha = Double(destination[to + 3]) / 255
                        let alpha = markAlpha + frameAlpha * (1 - markAlpha)
                        for channel in 0..<3 {
                            let value = (Double(source[from + channel]) * markAlpha
                                + Double(destination[to + channel]) * frameAlpha * (1 - markAlpha)) / alpha
                            destination[to + channel] = UInt8(min(255, max(0, value.rounded())))
                        }
                        destination[to + 3] = UInt8(min(255, max(0, (alpha * 255).rounded())))
                    }
                }
            }
        }
    }

    /// FNV-1a over the bytes: stable across runs, unlike `hashValue`.
    private static func digest(of pixels: PixelBuffer) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in pixels.bytes {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return hash
    }
}

extension ImageTransformer where Self == WatermarkTransformer {
    /// Lays `mark` over the image at `placement` with `opacity`.
    public static func watermark(_ mark: PixelBuffer, placement: WatermarkPlacement, opacity: Double = 1) -> WatermarkTransformer {
        WatermarkTransformer(mark: mark, placement: placement, opacity: opacity)
    }
}
