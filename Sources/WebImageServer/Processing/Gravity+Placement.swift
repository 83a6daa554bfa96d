import WebImage

extension Gravity {
    /// Where an `inner` area of `pixels` is cut out: for smart gravity, the most interesting
    /// area as `SmartCrop` finds it; for the others, ``origin(of:in:dpr:)`` of the sizes.
    func origin(of inner: PixelSize, in pixels: PixelBuffer, dpr: Double) -> (x: Int, y: Int) {
        guard kind == .smart else { return origin(of: inner, in: pixels.size, dpr: dpr) }
        let region = SmartCrop.region(of: inner, in: pixels)
        return (region.x, region.y)
    }

    /// Where an `inner` area goes inside `outer`, as imgproxy places crops and extended images:
    /// centred with the spare space plus one halved and rounded half to even (a 50-pixel crop
    /// of 200 starts at 76), at the gravity's edge or corner, or centred on the focus point.
    /// Offsets of 1 or more are pixels times `dpr`, rounded half to even; smaller ones are
    /// fractions of `outer`'s side; edge offsets move inwards. The area always stays inside
    /// `outer` when it fits (at 0 when it does not). Smart gravity, which needs the pixels it
    /// cuts from (the method above), centres here.
    func origin(of inner: PixelSize, in outer: PixelSize, dpr: Double = 1) -> (x: Int, y: Int) {
        let (left, top) = unclampedOrigin(of: inner, in: outer, dpr: dpr)
        return (max(0, min(left, outer.width - inner.width)), max(0, min(top, outer.height - inner.height)))
    }

    /// Where an overlay (a watermark) of `inner` goes on `outer`: placed as
    /// ``origin(of:in:dpr:)`` places it, but allowed past the edges as long as one pixel of it
    /// stays on `outer`, as imgproxy places watermarks.
    func overlayOrigin(of inner: PixelSize, in outer: PixelSize, dpr: Double) -> (x: Int, y: Int) {
        let (left, top) = unclampedOrigin(of: inner, in: outer, dpr: dpr)
        return (max(1 - inner.width, min(left, outer.width - 1)), max(1 - inner.height, min(top, outer.height - 1)))
    }

    /// The placement before it is kept inside `outer`.
    private func unclampedOrigin(of inner: PixelSize, in outer: PixelSize, dpr: Double) -> (x: Int, y: Int) {
        var left: Int, top: Int
        if kind == .focusPoint {
            left = Self.even(Double(outer.width) * x) - inner.width / 2
            top = Self.even(Double(outer.height) * y) - inner.height / 2
        } else {
            let offsetX = Self.offset(x, side: outer.width, dpr: dpr), offsetY = Self.offset(y, side: outer.height, dpr: dpr)
            left = Self.even(Double(outer.width - inner.width + 1) / 2) + offsetX
            top = Self.even(Double(outer.height - inner.height + 1) / 2) + offsetY
            if isWest { left = offsetX }
            if isEast { left = outer.width - inner.width - offsetX }
            if isNorth { top = offsetY }
            if isSouth { top = outer.height - inner.height - offsetY }
        }
        return (left, top)
    }

    /// An offset in pixels: `value` × `dpr` from 1 up (either sign), else a fraction of `side`.
    static func offset(_ value: Double, side: Int, dpr: Double) -> Int {
        abs(value) >= 1 ? even(value * dpr) : even(Double(side) * value)
    }

    /// `value` rounded half to even, as Go's `math.RoundToEven`.
    static func even(_ value: Double) -> Int { Int(value.rounded(.toNearestOrEven)) }

    private var isWest: Bool { [.west, .northWest, .southWest].contains(kind) }
    private var isEast: Bool { [.east, .northEast, .southEast].contains(kind) }
    private var isNorth: Bool { [.north, .northEast, .northWest].contains(kind) }
    private var isSouth: Bool { [.south, .southEast, .southWest].contains(kind) }
}
