import Foundation

/// The weights of a one-dimensional convolution from `inputSize` samples to `outputSize`:
/// for each output position, the first input index and up to ``stride`` normalised weights.
///
/// Tables are computed once per pass and stored flat (`stride` weights a position, unused ones
/// zero), so the convolution loops read them without allocating.
struct FilterTable: Sendable {
    /// Input samples along the filtered axis.
    let inputSize: Int
    /// Output samples along the filtered axis.
    let outputSize: Int
    /// The most taps any position uses: the distance between two positions' weights.
    let stride: Int
    /// The first input index each output position reads.
    let starts: [Int]
    /// How many input samples each output position reads.
    let counts: [Int]
    /// `outputSize * stride` weights; those of one position add up to 1.
    let weights: [Float]

    /// A table from each output position's window (its centre and reach, in input samples) and
    /// a kernel of the distance between an input sample's centre and that window's centre,
    /// normalised so every position's weights add up to 1.
    init(inputSize: Int, outputSize: Int, window: (Int) -> (center: Double, radius: Double),
         kernel: (_ distance: Double) -> Double) {
        var starts = [Int](repeating: 0, count: outputSize)
        var counts = [Int](repeating: 0, count: outputSize)
        let stride = (0..<outputSize).reduce(1) { widest, i in
            let (center, radius) = window(i)
            let start = max(0, Int((center - radius).rounded(.down)))
            let end = min(inputSize, Int((center + radius).rounded(.up)))
            starts[i] = start
            counts[i] = max(0, end - start)
            return max(widest, end - start)
        }
        var weights = [Float](repeating: 0, count: outputSize * stride)
        for i in 0..<outputSize {
            let center = window(i).center
            var total = 0.0
            var row = [Double](repeating: 0, count: counts[i])
            for k in 0..<counts[i] {
                row[k] = kernel(Double(starts[i] + k) + 0.5 - center)
                total += row[k]
            }
            let norm = total == 0 ? 0 : 1 / total
            for k in 0..<counts[i] { weights[i * stride + k] = Float(row[k] * norm) }
        }
        self.inputSize = inputSize
        self.outputSize = outputSize
        self.stride = stride
        self.starts = starts
        self.counts = counts
        self.weights = weights
    }

    /// Resampling with `filter` from `inputSize` to `outputSize` samples (Lanczos-3 by
    /// default). When shrinking, the kernel is widened by the reduction factor so every input
    /// sample contributes, as Pillow's `LANCZOS` does (``ResamplingFilter/nearest`` excepted,
    /// which picks one sample); when enlarging it spans its support each side.
    ///
    /// `span` (the input samples mapped onto the output, fractional allowed) starting at
    /// `offset` selects part of the input, as Pillow's `box`: an aspect-fill crop stays centred
    /// to a fraction of a pixel instead of rounding its margins. By default the whole input.
    static func lanczos(from inputSize: Int, to outputSize: Int, offset: Double = 0, span: Double? = nil,
                        filter: ResamplingFilter = .lanczos3) -> FilterTable {
        let scale = Double(outputSize) / (span ?? Double(inputSize))
        let filterScale = filter == .nearest ? 1 : max(1, 1 / scale)
        return FilterTable(
            inputSize: inputSize, outputSize: outputSize,
            window: { (offset + (Double($0) + 0.5) / scale, filter.support * filterScale) },
            kernel: { filter.weight($0 / filterScale) })
    }

    /// A Gaussian blur of standard deviation `sigma` over `size` samples, cut off at three
    /// standard deviations; near the edges the weights that fall inside are renormalised.
    static func gaussian(sigma: Double, size: Int) -> FilterTable {
        let radius = max(1, 3 * sigma)
        let twoSigmaSquared = 2 * sigma * sigma
        return FilterTable(
            inputSize: size, outputSize: size,
            window: { (Double($0) + 0.5, radius) },
            kernel: { abs($0) > radius ? 0 : exp(-$0 * $0 / twoSigmaSquared) })
    }

}
