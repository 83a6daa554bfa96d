import Foundation

/// A ramp from 0 to 1 across an image along a direction: 0 before ``start``, growing linearly to
/// 1 at ``stop``, 1 past it (imgproxy's `gradient` and `progressive_blur` directions). Positions
/// are measured across the image's extent in that direction, so that 0 is the first corner it
/// meets and 1 the last, whatever the image's shape.
public struct LinearRamp: Sendable, Hashable {
    /// The direction, in degrees clockwise, in which the ramp grows: 0 from the top (0) down to
    /// the bottom (1), 90 from the right to the left, 180 up, 270 from the left to the right
    /// (imgproxy's `down`, `left`, `up`, `right`).
    public var angle: Double
    /// Where along that direction the ramp leaves 0, 0…1 of the image's extent.
    public var start: Double
    /// Where it reaches 1, 0…1; a stop at or before the start is a step at the start.
    public var stop: Double

    /// A ramp growing toward `angle`, from `start` to `stop` (values that are not finite are the defaults).
    public init(angle: Double = 0, start: Double = 0, stop: Double = 1) {
        self.angle = angle.isFinite ? angle : 0
        self.start = start.isFinite ? start : 0
        self.stop = stop.isFinite ? stop : 1
    }

    /// `90,0,1`: the angle, start and stop, for transformer keys.
    var key: String { [angle, start, stop].map(TransformerKey.number).joined(separator: ",") }

    /// The ramp's value, 0…1, at each pixel centre of an image `width` × `height`.
    func values(width: Int, height: Int) -> (_ x: Int, _ y: Int) -> Double {
        let radians = angle * .pi / 180
        let direction = (x: -sin(radians), y: cos(radians))
        let extent = max(abs(Double(width) * direction.x) + abs(Double(height) * direction.y), .ulpOfOne)
        let start = start, span = stop - start
        let halfWidth = Double(width) / 2, halfHeight = Double(height) / 2
        return { x, y in
            let along = ((Double(x) + 0.5 - halfWidth) * direction.x + (Double(y) + 0.5 - halfHeight) * direction.y) / extent + 0.5
            let share = span > 0 ? (along - start) / span : (along >= start ? 1 : 0)
            return min(max(share, 0), 1)
        }
    }
}
