/// A crop of the source before resizing (imgproxy's `crop:%width:%height:%gravity`).
///
/// A side of 0 keeps the source's side; a side under 1 is a fraction of the source's side; a
/// side of 1 or more is pixels. The gravity, when absent, is the request's main gravity.
public struct ProcessingCrop: Sendable, Hashable {
    /// The width to keep: pixels, a fraction below 1, or 0 for all of it.
    public var width: Double
    /// The height to keep: pixels, a fraction below 1, or 0 for all of it.
    public var height: Double
    /// Where the kept area sits, or nil to use the request's gravity.
    public var gravity: Gravity?

    /// A crop of `width` × `height` placed by `gravity`.
    public init(width: Double, height: Double, gravity: Gravity? = nil) {
        self.width = width
        self.height = height
        self.gravity = gravity
    }
}
