/// Space added around the processed image (imgproxy's `padding:%top:%right:%bottom:%left`), in
/// pixels before the device pixel ratio, filled with the background colour or left transparent.
public struct ProcessingPadding: Sendable, Hashable {
    /// Pixels above the image.
    public var top: Int
    /// Pixels right of the image.
    public var right: Int
    /// Pixels below the image.
    public var bottom: Int
    /// Pixels left of the image.
    public var left: Int

    /// Padding of the given sides.
    public init(top: Int = 0, right: Int = 0, bottom: Int = 0, left: Int = 0) {
        self.top = top
        self.right = right
        self.bottom = bottom
        self.left = left
    }

    /// Whether any side adds space.
    public var isEmpty: Bool { top == 0 && right == 0 && bottom == 0 && left == 0 }
}
