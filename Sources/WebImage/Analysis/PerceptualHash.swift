import Foundation

/// The perceptual hash (pHash) of an image as the Python `imagehash` library's `phash` makes
/// it (hash size 8, high-frequency factor 4): 64 bits that stay nearly the same when an image
/// is resized, recompressed or slightly retouched, so near-duplicates are found by the Hamming
/// distance between hashes.
///
/// The steps, each as Pillow and SciPy do them so that hashes match `imagehash`'s:
/// 1. grey levels as Pillow's `convert("L")` makes them: `L = (19595 R + 38470 G + 7471 B +
///    32768) >> 16`, the fixed-point form of ITU-R 601's `0.299 R + 0.587 G + 0.114 B`;
///    alpha is ignored, as Pillow's conversion ignores it;
/// 2. shrunk (or enlarged) to 32 × 32 with Pillow's `LANCZOS` filter: Lanczos-3 whose support
///    is widened by the reduction factor, weights normalised then rounded to 22-bit fixed
///    point, horizontally then vertically, each pass rounded to 8 bits;
/// 3. the unnormalised DCT-II of SciPy's `fftpack.dct` down the columns, then along the rows;
/// 4. of the top-left 8 × 8 (lowest) frequencies, each bit is whether the coefficient is above
///    their median, row by row, the first in the most significant bit. A coefficient that is
///    zero but for rounding (under 10⁻⁹ of the DC) counts as exactly 0, as SciPy's FFT makes
///    it, so images with flat rows or columns hash as `imagehash` hashes them.
public enum PerceptualHash {
    /// The 64-bit pHash of `pixels`; `imagehash`'s hex string is ``hexString(_:)`` of it.
    /// An image without pixels has no frequencies above a median: its hash is 0.
    public static func hash(_ pixels: PixelBuffer) -> UInt64 {
        guard pixels.width > 0, pixels.height > 0 else { return 0 }
        let exact = lowFrequencies(of: shrunkGrey(pixels))
        // A coefficient that is zero but for rounding (a row or column of one grey) is zero in
        // SciPy's FFT too: made exactly 0 here, it compares with the median as it does there,
        // instead of by the sign of its noise. Coefficients cannot exceed the DC's magnitude.
        let noise = abs(exact[0]) * 1e-9
        let coefficients = exact.map { abs($0) <= noise ? 0 : $0 }
        let sorted = coefficients.sorted()
        let median = (sorted[hashSide * hashSide / 2 - 1] + sorted[hashSide * hashSide / 2]) / 2
        return coefficients.reduce(0) { bits, coefficient in bits << 1 | (coefficient > median ? 1 : 0) }
    }

    /// `hash` as `imagehash` prints a hash: 16 lowercase hexadecimal digits, most significant
    /// first, so hashes stored by Python tools compare as strings.
    public static func hexString(_ hash: UInt64) -> String {
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Frequencies kept each way.
    private static let hashSide = 8
    /// The side of the grey image the DCT is taken of: `hashSide` times the high-frequency factor, 4.
    private static let side = 32
    /// Fractional bits of Pillow's fixed-point weights for 8-bit images.
    private static let precisionBits = 22

    /// `pixels` as Pillow's grey levels resized to `side × side` with its `LANCZOS` filter,
    /// row-major. Pillow skips a pass whose side already fits, so this does too: the rounding
    /// to 8 bits between the passes is part of the result.
    private static func shrunkGrey(_ pixels: PixelBuffer) -> [UInt8] {
        let width = pixels.width, height = pixels.height
        var across: [UInt8]
        if width == side {
            across = (0..<height).flatMap { y in greyRow(pixels, y) }
        } else {
            let filter = Filter(from: width, to: side)
            across = [UInt8](repeating: 0, count: side * height)
            for y in 0..<height {
                let row = greyRow(pixels, y)
                for x in 0..<side { across[y * side + x] = filter.apply(at: x) { row[$0] } }
            }
        }
        guard height != side else { return across }
        let filter = Filter(from: height, to: side)
        var shrunk = [UInt8](repeating: 0, count: side * side)
        for y in 0..<side {
            for x in 0..<side { shrunk[y * side + x] = filter.apply(at: y) { across[$0 * side + x] } }
        }
        return shrunk
    }

    /// Row `y` of `pixels` as Pillow's `L` grey levels.
    private static func greyRow(_ pixels: PixelBuffer, _ y: Int) -> [UInt8] {
        pixels.bytes.withUnsafeBufferPointer { bytes in
            (0..<pixels.width).map { x in
                let at = (y * pixels.width + x) * 4
                let red: Int = 19595 * Int(bytes[at]), green: Int = 38470 * Int(bytes[at + 1]), blue: Int = 7471 * Int(bytes[at + 2])
                return UInt8(truncatingIfNeeded: (red + green + blue + 32768) >> 16)
            }
        }
    }

    /// The top-left `hashSide × hashSide` of SciPy's unnormalised DCT-II of the `side × side`
    /// grey image, down the columns then along the rows, row-major:
    /// `X[k] = 2 Σ x[n] cos(π k (2n + 1) / 2N)`.
    private static func lowFrequencies(of grey: [UInt8]) -> [Double] {
        var basis = [Double](repeating: 0, count: hashSide * side)
        for k in 0..<hashSide {
            for n in 0..<side {
                let angle = Double.pi * Double(k) * Double(2 * n + 1) / Double(2 * side)
                basis[k * side + n] = 2 * cos(angle)
            }
        }
        var down = [Double](repeating: 0, count: hashSide * side)
        for k in 0..<hashSide {
            for column in 0..<side {
                var sum = 0.0
                for n in 0..<side { sum += basis[k * side + n] * Double(grey[n * side + column]) }
                down[k * side + column] = sum
            }
        }
        var coefficients = [Double](repeating: 0, count: hashSide * hashSide)
        for k in 0..<hashSide {
            for l in 0..<hashSide {
                var sum = 0.0
                for n in 0..<side { sum += basis[l * side + n] * down[k * side + n] }
                coefficients[k * hashSide + l] = sum
            }
        }
        return coefficients
    }

    /// The weights of one pass of Pillow's `LANCZOS` resampling from `inSize` to `outSize`
    /// samples, as its `precompute_coeffs` and `normalize_coeffs_8bpc` make them.
    private struct Filter {
        /// First input sample of each output sample.
        var starts: [Int] = []
        /// Input samples each output sample reads.
        var counts: [Int] = []
        /// `stride` fixed-point weights an output sample; those past its count are 0.
        var weights: [Int] = []
        var stride = 0

        init(from inSize: Int, to outSize: Int) {
            let scale = Double(inSize) / Double(outSize)
            let filterScale = max(scale, 1)
            let support = 3 * filterScale
            let inverseFilterScale = 1 / filterScale
            stride = Int(support.rounded(.up)) * 2 + 1
            weights = [Int](repeating: 0, count: outSize * stride)
            for position in 0..<outSize {
                let center = (Double(position) + 0.5) * scale
                // Pillow rounds the window's ends by adding 0.5 and truncating toward zero.
                let start = max(0, Int(center - support + 0.5))
                let count = min(inSize, Int(center + support + 0.5)) - start
                let raw = (0..<count).map { Self.lanczos3((Double(start + $0) - center + 0.5) * inverseFilterScale) }
                let total = raw.reduce(0, +)
                for (k, weight) in raw.enumerated() {
                    let normalised = (total == 0 ? weight : weight / total) * Double(1 << precisionBits)
                    weights[position * stride + k] = Int(normalised < 0 ? normalised - 0.5 : normalised + 0.5)
                }
                starts.append(start)
                counts.append(count)
            }
        }

        /// Output sample `position` of the samples `sample(i)`, rounded and clamped to 8 bits.
        func apply(at position: Int, _ sample: (Int) -> UInt8) -> UInt8 {
            var sum = 1 << (precisionBits - 1)
            let start = starts[position], first = position * stride
            for k in 0..<counts[position] { sum += Int(sample(start + k)) * weights[first + k] }
            return UInt8(min(max(sum >> precisionBits, 0), 255))
        }

        /// Pillow's Lanczos-3 kernel: `sinc(x) · sinc(x / 3)` on −3 ≤ x < 3.
        private static func lanczos3(_ x: Double) -> Double {
            guard -3 <= x, x < 3 else { return 0 }
            return sinc(x) * sinc(x / 3)
        }

        private static func sinc(_ x: Double) -> Double {
            if x == 0 { return 1 }
            let px = x * Double.pi
            return sin(px) / px
        }
    }
}
