extension PixelSize {
    /// `length` as a side in whole pixels: rounded as `rule` says and at least 1 (a length that
    /// is not a number, or is past any image's, is 1 or the largest side). Half away from zero
    /// by default, as imgproxy's Go and libvips round; thumbor's Python rounds half to even.
    /// Every "scale, round, keep at least one pixel" of the pipeline and the server is this.
    public static func side(_ length: Double, rounding rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> Int {
        guard length.isFinite else { return length > 0 ? maxSide : 1 }
        return max(1, Int(min(length, Double(maxSide)).rounded(rule)))
    }

    /// The longest side ``side(_:rounding:)`` gives: far past any image, far inside `Int`.
    public static let maxSide = 1 << 40

    /// A size of `width` × `height` pixels, each side as ``side(_:rounding:)`` makes it.
    public init(width: Double, height: Double, rounding rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) {
        self.init(width: Self.side(width, rounding: rule), height: Self.side(height, rounding: rule))
    }

    /// This size times `scale`, each side as ``side(_:rounding:)`` makes it.
    public func scaled(by scale: Double, rounding rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> PixelSize {
        PixelSize(width: Double(width) * scale, height: Double(height) * scale, rounding: rule)
    }
}
