import WebImage

extension Gravity {
    /// Where an `inner` area of `pixels` is cut out: for smart gravity, the most interesting
    /// area as ``SmartCrop`` finds it; for the others, ``origin(of:in:)`` of the sizes.
    func origin(of inner: PixelSize, in pixels: PixelBuffer) -> (x: Int, y: Int) {
        guard kind == .smart else { return origin(of: inner, in: PixelSize(width: pixels.width, height: pixels.height)) }
        let region = SmartCrop.region(of: inner, in: pixels)
        return (region.x, region.y)
    }

    /// Where an `inner` area goes inside `outer`, as imgproxy places crops and extended images:
    /// at the gravity's edge or corner moved inwards by the offsets, at the centre moved by the
    /// offsets, or centred on the focus point; always clamped so that it stays inside when it fits.
    /// Smart gravity, which needs the pixels it cuts from (the method above), centres here:
    /// where an image is placed on a larger canvas, as imgproxy's `extend` does.
    func origin(of inner: PixelSize, in outer: PixelSize) -> (x: Int, y: Int) {
        let spareWidth = Double(outer.width - inner.width), spareHeight = Double(outer.height - inner.height)
        let left: Double, top: Double
        switch kind {
        case .focusPoint:
            left = Double(outer.width) * x - Double(inner.width) / 2
            top = Double(outer.height) * y - Double(inner.height) / 2
        case .centre, .smart:
            left = spareWidth / 2 + x
            top = spareHeight / 2 + y
        default:
            left = isWest ? x : isEast ? spareWidth - x : spareWidth / 2 + x
            top = isNorth ? y : isSouth ? spareHeight - y : spareHeight / 2 + y
        }
        return (Self.clamp(left, spareWidth), Self.clamp(top, spareHeight))
    }

    private var isWest: Bool { [.west, .northWest, .southWest].contains(kind) }
    private var isEast: Bool { [.east, .northEast, .southEast].contains(kind) }
    private var isNorth: Bool { [.north, .northEast, .northWest].contains(kind) }
    private var isSouth: Bool { [.south, .southEast, .southWest].contains(kind) }

    /// `value` rounded and kept within 0…`spare` (or 0…`spare` reversed when the area does not fit).
    private static func clamp(_ value: Double, _ spare: Double) -> Int {
        let low = min(0, spare), high = max(0, spare)
        return Int(min(max(value, low), high).rounded())
    }
}
