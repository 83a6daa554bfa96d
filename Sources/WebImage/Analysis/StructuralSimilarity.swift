import Foundation

/// How alike two images of one size look: the structural similarity index (SSIM) of Wang,
/// Bovik, Sheikh and Simoncelli (2004), and the dissimilarity DSSIM = (1 − SSIM) / 2, which
/// imgproxy's autoquality aims at (0 for identical images; about 0.02 is hard to see).
///
/// Computed as the paper and scikit-image's `structural_similarity` (with `gaussian_weights`,
/// `sigma` 1.5, `data_range` 255) compute it: on each of R, G and B of the pixels composited over
/// white, local means, variances and covariance under an 11-tap Gaussian window (σ 1.5,
/// K1 0.01, K2 0.03), the index averaged over the pixels whose window lies inside the image, then
/// over the channels.
public enum StructuralSimilarity {
    /// The window's radius: the Gaussian reaches 3.5 sigmas, as scikit-image truncates it.
    static let radius = 5
    /// The window's standard deviation.
    static let sigma = 1.5

    /// The largest sides compared: larger images are both shrunk to fit (alike, by the same
    /// resize), which bounds the work and memory (about 90 bytes a pixel compared).
    public static let maxSide = 512

    /// The SSIM of `image` against `reference`, −1…1 (1 for identical pixels), on both shrunk
    /// to fit ``maxSide`` × ``maxSide`` when larger. Throws
    /// ``ImageAnalysisError/sizesDiffer(_:_:)`` for images of two sizes and
    /// ``ImageAnalysisError/imageTooSmall(width:height:minimum:)`` under 11 pixels a side (once shrunk).
    public static func index(of image: PixelBuffer, against reference: PixelBuffer) throws(ImageAnalysisError) -> Double {
        guard image.size == reference.size else { throw .sizesDiffer(image.size, reference.size) }
        var (image, reference) = (image, reference)
        if image.width > maxSide || image.height > maxSide {
            let box = image.size.fitting(within: PixelSize(width: maxSide, height: maxSide))
            (image, reference) = (Resampler.resize(image, to: box), Resampler.resize(reference, to: box))
        }
        let side = 2 * radius + 1
        guard image.width >= side, image.height >= side else {
            throw .imageTooSmall(width: image.width, height: image.height, minimum: side)
        }
        let weights = window()
        var total = 0.0
        for channel in 0..<3 {
            total += channelIndex(plane(image, channel), plane(reference, channel), width: image.width, height: image.height,
                                  weights: weights)
        }
        return total / 3
    }

    /// The DSSIM of `image` against `reference`, (1 − SSIM) / 2: 0 for identical pixels.
    public static func dissimilarity(of image: PixelBuffer, against reference: PixelBuffer) throws(ImageAnalysisError) -> Double {
        (1 - (try index(of: image, against: reference))) / 2
    }

    /// The Gaussian's taps, summing to 1.
    private static func window() -> [Double] {
        let raw = (-radius...radius).map { exp(-0.5 * Double($0 * $0) / (sigma * sigma)) }
        let sum = raw.reduce(0, +)
        return raw.map { $0 / sum }
    }

    /// Channel `channel` of `pixels` composited over white, as 0…255.
    private static func plane(_ pixels: PixelBuffer, _ channel: Int) -> [Double] {
        var plane = [Double](repeating: 0, count: pixels.width * pixels.height)
        pixels.bytes.withUnsafeBufferPointer { bytes in
            for index in plane.indices {
                let alpha = Double(bytes[index * 4 + 3]) / 255
                plane[index] = Double(bytes[index * 4 + channel]) * alpha + 255 * (1 - alpha)
            }
        }
        return plane
    }

    /// The mean SSIM of planes `x` and `y` over the pixels whose window lies inside.
    private static func channelIndex(_ x: [Double], _ y: [Double], width: Int, height: Int, weights: [Double]) -> Double {
        let c1: Double = (0.01 * 255) * (0.01 * 255), c2: Double = (0.03 * 255) * (0.03 * 255)
        let xx = zip(x, x).map { $0 * $1 }, yy = zip(y, y).map { $0 * $1 }, xy = zip(x, y).map { $0 * $1 }
        let means = [x, y, xx, yy, xy].map { filtered($0, width: width, height: height, weights: weights) }
        var sum = 0.0
        let innerWidth = width - 2 * radius, innerHeight = height - 2 * radius
        for row in 0..<innerHeight {
            for column in 0..<innerWidth {
                let i = row * innerWidth + column
                let mx = means[0][i], my = means[1][i]
                let vx = means[2][i] - mx * mx, vy = means[3][i] - my * my, cxy = means[4][i] - mx * my
                sum += ((2 * mx * my + c1) * (2 * cxy + c2)) / ((mx * mx + my * my + c1) * (vx + vy + c2))
            }
        }
        return sum / Double(innerWidth * innerHeight)
    }

    /// `plane` under the window at every pixel whose window lies inside, row by row (a
    /// horizontal then a vertical pass): `(width − 10) × (height − 10)` values.
    private static func filtered(_ plane: [Double], width: Int, height: Int, weights: [Double]) -> [Double] {
        let innerWidth = width - 2 * radius, innerHeight = height - 2 * radius, taps = weights.count
        var across = [Double](repeating: 0, count: innerWidth * height)
        plane.withUnsafeBufferPointer { source in
            across.withUnsafeMutableBufferPointer { target in
                for row in 0..<height {
                    for column in 0..<innerWidth {
                        var sum = 0.0
                        for tap in 0..<taps { sum += source[row * width + column + tap] * weights[tap] }
                        target[row * innerWidth + column] = sum
                    }
                }
            }
        }
        var down = [Double](repeating: 0, count: innerWidth * innerHeight)
        across.withUnsafeBufferPointer { source in
            down.withUnsafeMutableBufferPointer { target in
                for row in 0..<innerHeight {
                    for column in 0..<innerWidth {
                        var sum = 0.0
                        for tap in 0..<taps { sum += source[(row + tap) * innerWidth + column] * weights[tap] }
                        target[row * innerWidth + column] = sum
                    }
                }
            }
        }
        return down
    }
}
