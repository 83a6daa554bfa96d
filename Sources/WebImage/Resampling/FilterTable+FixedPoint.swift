#if arch(x86_64)
import CResampling

extension FilterTable {
    /// The weights in fixed point, as `wi_resample_filter_row_bytes` takes them: pairs of taps,
    /// each pair written four times (`w0, w1, w0, w1, …`), ``fixedPointPairStride`` pairs a
    /// position, an odd last tap paired with 0 (see ``fixedPoint(_:one:)``); nil when a
    /// position's weights cannot be written so.
    func fixedPointPairs() -> [Int16]? {
        var pairs = [Int16](repeating: 0, count: outputSize * fixedPointPairStride * 8)
        for i in 0..<outputSize {
            let position = weights[i * stride..<i * stride + counts[i]]
            guard let fixed = Self.fixedPoint(position, one: Int(WI_RESAMPLE_FIXED_ONE)) else { return nil }
            for (k, weight) in fixed.enumerated() {
                let first = (i * fixedPointPairStride + k / 2) * 8 + k % 2
                for lane in 0..<4 { pairs[first + lane * 2] = weight }
            }
        }
        return pairs
    }

    /// Pairs of taps a position in ``fixedPointPairs()``.
    var fixedPointPairStride: Int { (stride + 1) / 2 }

    /// One position's `weights` as multiples of `1 / one`, each rounded to the nearest; when
    /// they add up to more than nothing, the rounding's remainder is then spread a unit at a
    /// time over the weights that rounded furthest the other way, so that they add up to
    /// exactly `one` (a flat colour stays flat) and each stays within one unit of its value.
    /// Nil when a weight is not a number or does not fit 16 bits, or when 255 times the sum of
    /// their magnitudes does not fit 32 bits (the row filter's sums would overflow).
    static func fixedPoint(_ weights: some Collection<Float>, one: Int) -> [Int16]? {
        var fixed: [Int] = [], rounding: [Float] = []
        for weight in weights {
            let scaled = weight * Float(one)
            // Checked before the conversion to Int, which would trap on a NaN or a huge weight.
            guard abs(scaled) <= Float(Int16.max) else { return nil }
            fixed.append(Int(scaled.rounded()))
            rounding.append(scaled - scaled.rounded())
        }
        let remainder = one - fixed.reduce(0, +)
        if remainder != 0, weights.reduce(0, +) > 0 {
            let furthest = rounding.indices.sorted { remainder > 0 ? rounding[$0] > rounding[$1] : rounding[$0] < rounding[$1] }
            for index in furthest.prefix(abs(remainder)) { fixed[index] += remainder.signum() }
        }
        guard fixed.reduce(0, { $0 + abs($1) }) <= Int(Int32.max) / 255 else { return nil }
        let narrow = fixed.compactMap { Int16(exactly: $0) }
        return narrow.count == fixed.count ? narrow : nil
    }
}
#endif
