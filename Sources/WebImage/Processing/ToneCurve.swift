/// A tone curve through control points, as thumbor's `curve` filter draws one: a natural cubic
/// spline through the points, each value before the first point the first point's level and
/// each from the last point on the last point's, rounded and clamped to 0…255.
public struct ToneCurve: Sendable, Hashable {
    /// One control point: the level `input` becomes `output`.
    public struct Point: Sendable, Hashable {
        /// The level the point maps.
        public var input: UInt8
        /// What it maps it to.
        public var output: UInt8

        /// The point mapping `input` to `output`.
        public init(_ input: UInt8, _ output: UInt8) {
            self.input = input
            self.output = output
        }
    }

    /// The control points, inputs strictly increasing.
    public let points: [Point]

    /// The curve through `points`, or nil when there are none or their inputs do not strictly
    /// increase (a spline through them is not defined).
    public init?(_ points: [Point]) {
        guard !points.isEmpty, zip(points, points.dropFirst()).allSatisfy({ $0.input < $1.input }) else { return nil }
        self.points = points
    }

    /// `[(0,0),(128,140),(255,255)]`: the points as thumbor writes them, for cache keys.
    public var key: String {
        "[" + points.map { "(\($0.input),\($0.output))" }.joined(separator: ",") + "]"
    }

    /// The level each of the 256 levels becomes.
    public var table: [UInt8] {
        let xs = points.map { Double($0.input) }, ys = points.map { Double($0.output) }
        let bends = Self.secondDerivatives(xs, ys)
        var table = [UInt8](repeating: points[0].output, count: 256)
        for i in 0..<(points.count - 1) {
            let h = xs[i + 1] - xs[i]
            for level in Int(points[i].input)..<Int(points[i + 1].input) {
                let b = (Double(level) - xs[i]) / h, a = 1 - b
                let y = a * ys[i] + b * ys[i + 1] + h * h / 6 * ((a * a * a - a) * bends[i] + (b * b * b - b) * bends[i + 1])
                table[level] = UInt8(min(255, max(0, y.rounded())))
            }
        }
        for level in Int(points[points.count - 1].input)...255 { table[level] = points[points.count - 1].output }
        return table
    }

    /// The spline's second derivative at each point, zero at both ends (a natural spline): the
    /// tridiagonal system solved by elimination, as thumbor's C does.
    private static func secondDerivatives(_ xs: [Double], _ ys: [Double]) -> [Double] {
        let n = xs.count
        guard n > 2 else { return [Double](repeating: 0, count: n) }
        var lower = [Double](repeating: 0, count: n), diagonal = [Double](repeating: 1, count: n)
        var upper = [Double](repeating: 0, count: n), right = [Double](repeating: 0, count: n)
        for i in 1..<(n - 1) {
            lower[i] = (xs[i] - xs[i - 1]) / 6
            diagonal[i] = (xs[i + 1] - xs[i - 1]) / 3
            upper[i] = (xs[i + 1] - xs[i]) / 6
            right[i] = (ys[i + 1] - ys[i]) / (xs[i + 1] - xs[i]) - (ys[i] - ys[i - 1]) / (xs[i] - xs[i - 1])
        }
        for i in 1..<n {
            let k = lower[i] / diagonal[i - 1]
            diagonal[i] -= k * upper[i - 1]
            right[i] -= k * right[i - 1]
        }
        var result = [Double](repeating: 0, count: n)
        result[n - 1] = right[n - 1] / diagonal[n - 1]
        for i in stride(from: n - 2, through: 0, by: -1) {
            result[i] = (right[i] - upper[i] * result[i + 1]) / diagonal[i]
        }
        return result
    }
}
