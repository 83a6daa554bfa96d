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
        let digest = String(mark.contentDigest, radix: 16)
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
                out.composite(mark, at: (left, top), opacity: opacity)
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
}

extension ImageTransformer where Self == WatermarkTransformer {
    /// Lays `mark` over the image at `placement` with `opacity`.
    public static func watermark(_ mark: PixelBuffer, placement: WatermarkPlacement, opacity: Double = 1) -> WatermarkTransformer {
        WatermarkTransformer(mark: mark, placement: placement, opacity: opacity)
    }
}
