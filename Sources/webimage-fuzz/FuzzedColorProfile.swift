import Foundation
import WebImage
import WebImageCodecs

/// Runs the ICC profile reader and lcms2 over fuzzed bytes: ``ColorProfile/init(iccData:)``,
/// then a conversion of a small buffer of every kind of pixels through the profile, as a
/// decoder does with the bytes of an embedded profile.
struct FuzzedColorProfile {
    /// The fuzzed bytes.
    let data: Data

    /// Reads the profile and converts 4 × 4 pixels of RGB, grey and CMYK through it; returns
    /// what came of it. Bad input must end in a ``ColorProfileError``.
    func run() -> String {
        let profile: ColorProfile
        do {
            profile = try ColorProfile(iccData: data)
        } catch {
            return "refused: \(error)"
        }
        invariant(profile.data == data, "the profile does not keep its bytes")
        invariant((profile.description?.count ?? 0) <= 256, "a description of \(profile.description?.count ?? 0) characters")
        var outcomes: [String] = []
        for samples in [ColorSamples.rgb, .gray, .invertedCMYK] {
            let bytes = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 37) }
            var pixels = PixelBuffer(width: 4, height: 4, bytes: bytes)
            do {
                try ColorConversion.toSRGB(&pixels, from: profile, samples: samples)
                invariant(pixels.width == 4 && pixels.height == 4 && pixels.bytes.count == 64, "conversion resized the pixels")
                if samples == .invertedCMYK {
                    invariant(!pixels.hasTransparency, "converted CMYK is not opaque")
                } else {
                    invariant(stride(from: 3, to: 64, by: 4).allSatisfy { pixels.bytes[$0] == bytes[$0] }, "conversion changed alpha")
                }
                outcomes.append("\(samples): converted")
            } catch {
                invariant(pixels.bytes == bytes, "a failed conversion changed the pixels")
                outcomes.append("\(samples): \(error)")
            }
        }
        return "\(profile.colorSpace) profile \(profile.description ?? "untitled"): " + outcomes.joined(separator: ", ")
    }
}
