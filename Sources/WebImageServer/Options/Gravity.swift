/// A crop anchor: a ``GravityKind`` and its offsets (imgproxy's `gravity:%type:%x:%y`).
///
/// For the edge and centre kinds the offsets are pixels moved away from the anchor; for
/// ``GravityKind/focusPoint`` they are the point itself, as fractions 0…1 of the width and height.
public struct Gravity: Sendable, Hashable {
    /// The anchor.
    public var kind: GravityKind
    /// The horizontal offset (pixels), or the focus point's x (0…1).
    public var x: Double
    /// The vertical offset (pixels), or the focus point's y (0…1).
    public var y: Double

    /// A gravity of `kind` with offsets `x` and `y`.
    public init(kind: GravityKind, x: Double = 0, y: Double = 0) {
        self.kind = kind
        self.x = x
        self.y = y
    }

    /// The default: the centre, no offset.
    public static let centre = Gravity(kind: .centre)

    /// `ce:0:0`, `fp:0.25:0.5`: how the canonical cache key spells it.
    var canonical: String {
        "\(kind.rawValue):\(CanonicalNumber.spell(x)):\(CanonicalNumber.spell(y))"
    }
}
