/// How a resize fits the source into the requested width and height (imgproxy's `resizing_type`).
public enum ResizingType: String, Sendable, Hashable, CaseIterable {
    /// Scale to fit inside the requested box, keeping the aspect ratio; the output may be smaller
    /// than the box on one side.
    case fit
    /// Scale to cover the requested box, keeping the aspect ratio, then crop what overflows
    /// (where the crop lands follows the gravity).
    case fill
    /// As ``fill``, but when the image would have to grow, the box shrinks instead, keeping its
    /// aspect ratio, so the output is never larger than the source.
    case fillDown = "fill-down"
    /// Scale each side to the requested size, changing the aspect ratio.
    case force
    /// ``fill`` when the source and the box are both portrait or both landscape, ``fit`` otherwise.
    case auto
}
