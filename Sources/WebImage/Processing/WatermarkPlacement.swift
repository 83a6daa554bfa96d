/// Where a ``WatermarkTransformer`` puts its mark on each frame. Copies reaching past the
/// frame's edges are cut off there; copies wholly outside it are skipped.
public enum WatermarkPlacement: Sendable, Hashable {
    /// Once, its top-left corner at `x`, `y` (either may be negative or past the frame).
    case at(x: Int, y: Int)
    /// Repeated over the whole frame from its top-left corner, each copy in a cell `spacingX`
    /// and `spacingY` pixels larger than the mark, the spare space split around it (the odd
    /// pixel after it), as imgproxy's `re` position tiles its watermark.
    case tiled(spacingX: Int, spacingY: Int)
    /// `columns` × `rows` copies, the first with its top-left corner at `x`, `y`, each next one
    /// `stepX` further right in its row and `stepY` further down in its column: thumbor's
    /// `repeat`, which spreads a counted number of copies over one side or both.
    case grid(x: Int, y: Int, stepX: Int, stepY: Int, columns: Int, rows: Int)
}
