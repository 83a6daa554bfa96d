import WebImage

extension ProcessingOptions {
    /// These options with the sides that depend on the source made plain: thumbor's `orig`
    /// sides become the source's, then `adaptive` swaps the requested width and height when the
    /// box is landscape and the source portrait or the other way round (a square never swaps,
    /// nor a box with a side left to the aspect ratio).
    func resolvingSourceSides(for source: PixelSize) -> ProcessingOptions {
        var resolved = self
        if widthFromSource { resolved.width = source.width }
        if heightFromSource { resolved.height = source.height }
        let width = resolved.width, height = resolved.height
        if adaptsToOrientation, width > 0, height > 0,
           (source.width < source.height && width > height) || (source.width > source.height && width < height) {
            resolved.width = height
            resolved.height = width
        }
        return resolved
    }
}
