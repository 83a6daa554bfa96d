import Foundation
import WebImage

/// Encodes a result at a quality, and when it comes out larger than a byte limit, again at
/// lower qualities until it fits or the quality reaches 10 (imgproxy's `max_bytes`): each step
/// lowers the quality by a quarter, a half or three quarters as the result is a little, well or
/// far over the limit, always by at least one.
struct FittingEncoder {
    /// The encoders.
    let coders: ImageCoders
    /// The format written.
    let format: ImageFormat
    /// The largest result in bytes; 0 for no limit.
    let maxBytes: Int

    /// `image` encoded at `quality` (1…100), or lower to fit ``maxBytes``.
    func encode(_ image: Image, quality: Int) throws -> Data {
        var quality = quality
        while true {
            let data = try coders.encode(image, as: format, options: ImageEncodeOptions(quality: Double(quality) / 100))
            guard maxBytes > 0, data.count > maxBytes, quality > 10 else { return data }
            let over = Double(data.count) / Double(maxBytes)
            let factor = over > 3 ? 0.25 : over > 1.5 ? 0.5 : 0.75
            quality = max(1, min(quality - 1, Int((Double(quality) * factor).rounded())))
        }
    }
}
