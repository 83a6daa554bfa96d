/// Convolves every frame with a kernel of odd width and height (thumbor's `convolution` filter):
/// each colour channel, and alpha when the frame has transparency (an opaque frame, which thumbor
/// holds without alpha, stays opaque), becomes the sum of the pixels around it weighted by the
/// kernel, truncated towards zero and clamped to 0…255; pixels past the edges repeat the edge.
/// With `normalize`, the weights are divided by their sum (when it is not 0), so that a blur
/// kernel such as `1 2 1 / 2 4 2 / 1 2 1` keeps the brightness; an edge detector such as
/// `-1 -1 -1 / -1 8 -1 / -1 -1 -1` is used as it is.
public struct ConvolutionTransformer: ImageTransformer, Hashable {
    /// The weights row by row, ``columns`` a row, divided by their sum when ``normalize`` says so.
    public let weights: [Double]
    /// The kernel's width; its height is the count of ``weights`` divided by it.
    public let columns: Int
    /// Whether the weights as given were divided by their sum.
    public let normalize: Bool
    /// How a weighted sum becomes a byte: toward zero as thumbor truncates, or to the nearest.
    public let rounding: FloatingPointRoundingRule

    /// A convolution by `weights` (row by row, `columns` a row), or nil when they make no
    /// kernel with a centre: `columns` not dividing their count, or an even width or height.
    /// Sums are truncated toward zero (thumbor's) unless `rounding` says otherwise.
    public init?(weights: [Double], columns: Int, normalize: Bool, rounding: FloatingPointRoundingRule = .towardZero) {
        guard columns > 0, !weights.isEmpty, weights.count % columns == 0, columns % 2 == 1,
              (weights.count / columns) % 2 == 1, weights.allSatisfy(\.isFinite) else { return nil }
        let sum = weights.reduce(0, +)
        self.weights = normalize && sum != 0 ? weights.map { $0 / sum } : weights
        self.columns = columns
        self.normalize = normalize
        self.rounding = rounding
    }

    /// `convolution(3,1,2,1,2,4,2,1,2,1)`: the columns, then the weights as used (`roundedConvolution(…)`
    /// when sums are rounded to the nearest).
    public var key: String {
        (rounding == .towardZero ? "convolution(" : "roundedConvolution(")
            + ([String(columns)] + weights.map(TransformerKey.number)).joined(separator: ",") + ")"
    }

    /// Every frame convolved; nil for an image without pixels.
    public func transform(_ image: Image, forKey key: String) -> Image? {
        guard image.pixelWidth > 0, image.pixelHeight > 0 else { return nil }
        return image.mappingFrames(convolved)
    }

    private func convolved(_ frame: PixelBuffer) -> PixelBuffer {
        var out = frame
        let width = frame.width, height = frame.height
        let rows = weights.count / columns, midX = columns / 2, midY = rows / 2
        let convolvesAlpha = frame.hasTransparency
        frame.bytes.withUnsafeBufferPointer { source in
            out.bytes.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    for x in 0..<width {
                        var sums: (Double, Double, Double, Double) = (0, 0, 0, 0)
                        for row in 0..<rows {
                            let sourceRow = min(max(y + row - midY, 0), height - 1) * width
                            for column in 0..<columns {
                                let weight = weights[row * columns + column]
                                let offset = (sourceRow + min(max(x + column - midX, 0), width - 1)) * 4
                                sums.0 += Double(source[offset]) * weight
                                sums.1 += Double(source[offset + 1]) * weight
                                sums.2 += Double(source[offset + 2]) * weight
                                sums.3 += Double(source[offset + 3]) * weight
                            }
                        }
                        let offset = (y * width + x) * 4
                        target[offset] = channel(sums.0)
                        target[offset + 1] = channel(sums.1)
                        target[offset + 2] = channel(sums.2)
                        if convolvesAlpha { target[offset + 3] = channel(sums.3) }
                    }
                }
            }
        }
        return out
    }

    /// `sum` rounded by ``rounding`` and clamped to a byte.
    private func channel(_ sum: Double) -> UInt8 {
        UInt8(min(max(sum.rounded(rounding), 0), 255))
    }
}

extension ImageTransformer where Self == ConvolutionTransformer {
    /// A 3 × 3 unsharp mask: each pixel less `weight` times each of its eight neighbours, over
    /// `divider`, with the centre weighted so that the kernel sums to 1 (`divider + 8 × weight`):
    /// a larger weight or a smaller divider sharpens more (imgproxy's `unsharp_masking` weight
    /// and divider, 1 and 24 by default), each sum rounded to the nearest. Nil for a weight below 0 or a divider not above 0.
    public static func unsharpMask(weight: Double = 1, divider: Double = 24) -> ConvolutionTransformer? {
        guard weight >= 0, divider > 0 else { return nil }
        var weights = [Double](repeating: -weight, count: 9)
        weights[4] = divider + 8 * weight
        return ConvolutionTransformer(weights: weights, columns: 3, normalize: true, rounding: .toNearestOrAwayFromZero)
    }
}
