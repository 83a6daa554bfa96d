import Foundation
import WebImage

/// Chooses a still result's quality as ``Autoquality`` says, by encoding it at candidate
/// qualities (a binary search over the allowed range, so at most seven encodes for 70…80 and
/// for 1…100): by `size`, the highest quality whose file fits the target (the lowest when none
/// does); by `dssim`, the lowest whose DSSIM against the unencoded pixels is at most the target,
/// taken at once when within the allowed error of it (the highest when none is).
struct AutoqualitySearch {
    /// How the quality is chosen.
    let autoquality: Autoquality
    /// Encodes a candidate at a quality, 1…100.
    let encode: (Int) throws -> Data
    /// Decodes a candidate's bytes, for its DSSIM.
    let decode: (Data) throws -> PixelBuffer

    /// The chosen encoding of `pixels` within `qualities`, with its quality.
    func best(of pixels: PixelBuffer, within qualities: ClosedRange<Int>) throws -> (data: Data, quality: Int) {
        var low = qualities.lowerBound, high = qualities.upperBound
        var chosen: (data: Data, quality: Int)?
        var fallback: (data: Data, quality: Int)?
        while low <= high {
            let quality = (low + high + 1) / 2
            let data = try encode(quality)
            switch autoquality.method {
            case .size:
                if Double(data.count) <= autoquality.target {
                    chosen = (data, quality)
                    low = quality + 1
                } else {
                    fallback = fallback.map { $0.quality < quality ? $0 : (data, quality) } ?? (data, quality)
                    high = quality - 1
                }
            case .dssim, .ml:
                let dssim = try StructuralSimilarity.dissimilarity(of: try decode(data), against: pixels)
                if dssim <= autoquality.target + autoquality.allowedError {
                    chosen = (data, quality)
                    if autoquality.target - dssim <= autoquality.allowedError { return (data, quality) }
                    high = quality - 1
                } else {
                    fallback = fallback.map { $0.quality > quality ? $0 : (data, quality) } ?? (data, quality)
                    low = quality + 1
                }
            case .none:
                return (data, quality)
            }
        }
        // When no candidate meets the target, the search has ended at the range's edge (the
        // lowest quality for size, the highest for DSSIM), which is the fallback.
        guard let result = chosen ?? fallback else { return (try encode(qualities.upperBound), qualities.upperBound) }
        return result
    }
}
