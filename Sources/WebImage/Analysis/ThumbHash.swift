import Foundation

/// ThumbHash (evanw/thumbhash): a placeholder of about 25 bytes that keeps more detail than a
/// BlurHash, the image's aspect ratio, and its alpha.
///
/// The image is turned into luminance (L), yellow–blue (P), red–green (Q) and alpha (A)
/// channels, each projected onto a triangle of cosine components; their averages and scales
/// go in a 5-byte header (6 with alpha), the components as 4-bit values after it.
public enum ThumbHash {
    /// The longest side ``encode(_:)`` takes, as in the reference encoder: a larger input
    /// gives no better hash, only a slower one.
    public static let maximumSide = 100

    /// The ThumbHash of `pixels`, at most ``maximumSide`` pixels a side (shrink larger images
    /// first: ``ImageAnalysisError/imageTooLarge(width:height:limit:)`` otherwise).
    ///
    /// Alpha is handled as the reference does: the average colour is weighted by alpha, each
    /// pixel is composited over that average before its L, P and Q are taken, and an image
    /// with any pixel under full opacity gets an alpha channel in the hash (and fewer
    /// luminance components to make room). Rounding is the reference's, half up.
    ///
    /// One deliberate difference: a component that is zero but for floating-point rounding
    /// (under 10⁻⁹, as in a flat or mirror-symmetric channel) is taken as exactly 0. The
    /// reference keeps the noise, so its nibbles there depend on its float type (the
    /// JavaScript and Rust encoders differ); this gives the exact arithmetic's answer.
    public static func encode(_ pixels: PixelBuffer) throws(ImageAnalysisError) -> [UInt8] {
        let width = pixels.width, height = pixels.height
        guard width > 0, height > 0 else { throw .emptyImage }
        guard width <= maximumSide, height <= maximumSide else {
            throw .imageTooLarge(width: width, height: height, limit: maximumSide)
        }
        let count = width * height
        var average = SIMD3<Double>.zero, totalAlpha = 0.0
        pixels.bytes.withUnsafeBufferPointer { bytes in
            for i in 0..<count {
                let alpha = Double(bytes[i * 4 + 3]) / 255
                average += alpha / 255 * colour(bytes, i)
                totalAlpha += alpha
            }
        }
        if totalAlpha > 0 { average /= totalAlpha }

        let hasAlpha = totalAlpha < Double(count)
        let luminanceLimit = hasAlpha ? 5.0 : 7.0
        let longest = Double(max(width, height))
        let lx = max(1, roundHalfUp(luminanceLimit * Double(width) / longest))
        let ly = max(1, roundHalfUp(luminanceLimit * Double(height) / longest))

        var l = [Double](repeating: 0, count: count), p = l, q = l, a = l
        pixels.bytes.withUnsafeBufferPointer { bytes in
            for i in 0..<count {
                let alpha = Double(bytes[i * 4 + 3]) / 255
                let c = average * (1 - alpha) + alpha / 255 * colour(bytes, i)
                l[i] = (c.x + c.y + c.z) / 3
                p[i] = (c.x + c.y) / 2 - c.z
                q[i] = c.x - c.y
                a[i] = alpha
            }
        }

        let luminance = encodeChannel(l, width: width, height: height, nx: max(3, lx), ny: max(3, ly))
        let yellowBlue = encodeChannel(p, width: width, height: height, nx: 3, ny: 3)
        let redGreen = encodeChannel(q, width: width, height: height, nx: 3, ny: 3)
        let opacity = hasAlpha ? encodeChannel(a, width: width, height: height, nx: 5, ny: 5) : nil

        let isLandscape = width > height
        let header24 = roundHalfUp(63 * luminance.dc)
            | roundHalfUp(31.5 + 31.5 * yellowBlue.dc) << 6
            | roundHalfUp(31.5 + 31.5 * redGreen.dc) << 12
            | roundHalfUp(31 * luminance.scale) << 18
            | (hasAlpha ? 1 << 23 : 0)
        let header16 = (isLandscape ? ly : lx)
            | roundHalfUp(63 * yellowBlue.scale) << 3
            | roundHalfUp(63 * redGreen.scale) << 9
            | (isLandscape ? 1 << 15 : 0)
        var hash = [header24, header24 >> 8, header24 >> 16, header16, header16 >> 8].map { UInt8(truncatingIfNeeded: $0) }
        if let opacity {
            hash.append(UInt8(truncatingIfNeeded: roundHalfUp(15 * opacity.dc) | roundHalfUp(15 * opacity.scale) << 4))
        }
        let factors = [luminance.ac, yellowBlue.ac, redGreen.ac, opacity?.ac ?? []].joined()
        for (index, factor) in factors.enumerated() {
            let nibble = UInt8(min(max(roundHalfUp(15 * factor), 0), 15))
            if index % 2 == 0 {
                hash.append(nibble)
            } else {
                hash[hash.count - 1] |= nibble << 4
            }
        }
        return hash
    }

    /// The colour of pixel `i` as 0…255 Doubles.
    private static func colour(_ bytes: UnsafeBufferPointer<UInt8>, _ i: Int) -> SIMD3<Double> {
        SIMD3(Double(bytes[i * 4]), Double(bytes[i * 4 + 1]), Double(bytes[i * 4 + 2]))
    }

    /// One channel's cosine components `(cx, cy)` for `cy < ny` and `cx · ny < nx · (ny − cy)`
    /// (a triangle: fine detail across and down at once is dropped), in that order: the
    /// constant one as `dc`, the others as `ac`, mapped from ±`scale` (their largest magnitude)
    /// to 0…1 (left at 0 when all are 0). The cosines are separable, so rows are projected
    /// across first, then down.
    private static func encodeChannel(_ channel: [Double], width: Int, height: Int, nx: Int, ny: Int)
        -> (dc: Double, ac: [Double], scale: Double) {
        let across = (0..<nx).flatMap { cx in (0..<width).map { x in cos(Double.pi / Double(width) * Double(cx) * (Double(x) + 0.5)) } }
        var rows = [Double](repeating: 0, count: height * nx)
        for y in 0..<height {
            for cx in 0..<nx {
                var sum = 0.0
                for x in 0..<width { sum += channel[x + y * width] * across[cx * width + x] }
                rows[y * nx + cx] = sum
            }
        }
        var dc = 0.0, ac: [Double] = [], scale = 0.0
        for cy in 0..<ny {
            var cx = 0
            while cx * ny < nx * (ny - cy) {
                var sum = 0.0
                for y in 0..<height {
                    sum += rows[y * nx + cx] * cos(Double.pi / Double(height) * Double(cy) * (Double(y) + 0.5))
                }
                // Under `noise`, a component is zero but for rounding (a flat or symmetric
                // channel): made exactly 0, so that such images hash the same every time
                // instead of by the sign and size of their rounding errors.
                let mean = sum / Double(width * height)
                let f = abs(mean) <= noise ? 0 : mean
                if cx > 0 || cy > 0 {
                    ac.append(f)
                    scale = max(scale, abs(f))
                } else {
                    dc = f
                }
                cx += 1
            }
        }
        if scale > 0 { ac = ac.map { 0.5 + 0.5 / scale * $0 } }
        return (dc, ac, scale)
    }

    /// `value` rounded to the nearest integer, halves up (JavaScript's `Math.round`, which the
    /// reference uses), for the bounded values of a hash.
    /// The magnitude under which a component counts as 0: channels are within ±1, so a real
    /// component this small could not move a 4-bit value.
    private static let noise = 1e-9

    private static func roundHalfUp(_ value: Double) -> Int {
        Int((value + 0.5).rounded(.down))
    }
}
