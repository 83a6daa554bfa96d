/// Sums of a grid of values over any rectangle in four lookups: entry (x, y) of the table holds
/// the sum of the values above and left of it. ``SmartCrop`` slides its window with one and
/// ``SaliencyMap`` takes its box means with them.
struct SummedAreaTable {
    /// Columns of the grid.
    let width: Int
    /// Rows of the grid.
    let height: Int
    /// `(width + 1) × (height + 1)` prefix sums, the first row and column 0.
    private let sums: [Double]

    /// The table of a `width` × `height` grid whose value at (x, y) is `value(y * width + x)`.
    init(width: Int, height: Int, value: (Int) -> Double) {
        self.width = width
        self.height = height
        let stride = width + 1
        var sums = [Double](repeating: 0, count: stride * (height + 1))
        for y in 0..<height {
            var row = 0.0
            for x in 0..<width {
                row += value(y * width + x)
                sums[(y + 1) * stride + x + 1] = sums[y * stride + x + 1] + row
            }
        }
        self.sums = sums
    }

    /// The sum of the values in columns `left..<right` and rows `top..<bottom`.
    func sum(left: Int, top: Int, right: Int, bottom: Int) -> Double {
        let stride = width + 1
        return sums[bottom * stride + right] - sums[top * stride + right] - sums[bottom * stride + left] + sums[top * stride + left]
    }
}
