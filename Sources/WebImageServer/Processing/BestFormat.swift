import Foundation
import WebImage

/// imgproxy Pro's `best` format: the candidate formats an image may be written in, how complex
/// it is, and which candidate is taken without trying them all.
enum BestFormat {
    /// The DSSIM against the unencoded result a candidate may always have to be chosen
    /// (imgproxy's autoquality target), however good the plain format's is.
    static let maximumDissimilarity = 0.02

    /// The formats `image` may be written in: `options`' preferred formats (JPEG, PNG and GIF
    /// without any, as imgproxy's default), then the accepted ones (WebP, AVIF, JPEG XL when
    /// the client's `Accept` allows them), each once, those that suit the image only (an
    /// animation moves, a transparent image keeps its alpha).
    static func candidates(for image: Image, options: ProcessingOptions) -> [ImageFormat] {
        let animated = image.frames.count > 1, transparent = image.pixels.hasTransparency
        var formats: [ImageFormat] = []
        for format in (options.preferredFormats.isEmpty ? [.jpeg, .png, .gif] : options.preferredFormats) + options.acceptedFormats
        where !formats.contains(format) {
            guard !animated || OutputEncoder.animatedFormats.contains(format), format != .jpeg || !transparent else { continue }
            formats.append(format)
        }
        return formats
    }

    /// The mean step in luma between each pixel and its right and lower neighbours, 0…255,
    /// measured on every other row and column: a photograph is about 10 to 30, a flat drawing
    /// under 5.
    static func complexity(of pixels: PixelBuffer) -> Double {
        guard pixels.width > 1, pixels.height > 1 else { return 0 }
        var sum = 0.0, count = 0
        pixels.bytes.withUnsafeBufferPointer { bytes in
            func luma(_ x: Int, _ y: Int) -> Double {
                let i = (y * pixels.width + x) * 4
                return 0.299 * Double(bytes[i]) + 0.587 * Double(bytes[i + 1]) + 0.114 * Double(bytes[i + 2])
            }
            for y in stride(from: 0, to: pixels.height - 1, by: 2) {
                for x in stride(from: 0, to: pixels.width - 1, by: 2) {
                    let centre = luma(x, y)
                    sum += abs(centre - luma(x + 1, y)) + abs(centre - luma(x, y + 1))
                    count += 2
                }
            }
        }
        return sum / Double(count)
    }

    /// The one candidate taken without trying them all (a result over the resolution bound):
    /// for a simple image WebP, then PNG; for a complex one AVIF, WebP, JPEG XL, then JPEG; the
    /// first candidate otherwise.
    static func likeliest(of candidates: [ImageFormat], simple: Bool) -> ImageFormat? {
        let order: [ImageFormat] = simple ? [.webp, .png] : [.avif, .webp, .jxl, .jpeg]
        return order.first(where: candidates.contains) ?? candidates.first
    }

    /// Whether `format` can be written losslessly here (PNG always is; GIF never, its palette
    /// has 256 colours and one bit of alpha).
    static func writesLosslessly(_ format: ImageFormat) -> Bool {
        [.png, .webp, .avif, .jxl].contains(format)
    }
}
