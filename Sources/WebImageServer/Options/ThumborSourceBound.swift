import WebImage

/// thumbor's `MAX_WIDTH` × `MAX_HEIGHT` on sources (its engine's `normalize`): a source past the
/// bound is shrunk before it is cropped and resized, to the bound's width when it overshoots the
/// width by more than the height, else to the bound's height, keeping its aspect. As thumbor, a
/// source overshooting both by as much is left as it is.
public struct ThumborSourceBound: Sendable, Hashable {
    /// The widest a source may be, 0 for no bound.
    public var width: Int
    /// The tallest a source may be, 0 for no bound.
    public var height: Int

    /// A bound of `width` × `height` (0 for no bound on that side).
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The size a `source` of this size is shrunk to (the other side rounded half to even, as
    /// Python rounds), or nil when it is left as it is.
    public func shrunk(_ source: PixelSize) -> PixelSize? {
        guard source.width > 0, source.height > 0, source.width > width || source.height > height else { return nil }
        let overWidth = source.width - width, overHeight = source.height - height
        if width > 0, overWidth > overHeight {
            return PixelSize(width: width, height: PixelSize.side(Double(width) * Double(source.height) / Double(source.width),
                                                                  rounding: .toNearestOrEven))
        }
        if height > 0, overHeight > overWidth {
            return PixelSize(width: PixelSize.side(Double(height) * Double(source.width) / Double(source.height),
                                                   rounding: .toNearestOrEven), height: height)
        }
        return nil
    }

    /// `tmax:W:H` in the canonical cache key.
    var canonical: String { "tmax:\(width):\(height)" }
}
