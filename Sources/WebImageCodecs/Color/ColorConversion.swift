import CLCMS2
import Foundation
import WebImage

/// Conversion of pixels to sRGB through an ICC profile, with lcms2: what decoders do with an
/// embedded profile, and what an app can do later with an image decoded with
/// ``ColorManagement/preserve``.
///
/// Transforms are built once per profile and cached (``ColorTransformCache``): the first image
/// with a profile pays lcms2's set-up, the next ones only the per-pixel work, and a profile
/// that is sRGB already costs a hash of its bytes.
public enum ColorConversion {
    /// Converts `pixels`, whose colours `profile` describes, to sRGB in place (lcms2,
    /// perceptual intent, relative colorimetric when the profile lacks perceptual). Alpha is
    /// left alone; ``ColorSamples/invertedCMYK`` pixels come out opaque RGBA. Throws, leaving
    /// the pixels unchanged, when the profile does not fit `samples` or lcms2 refuses it.
    public static func toSRGB(_ pixels: inout PixelBuffer, from profile: ColorProfile,
                              samples: ColorSamples = .rgb) throws(ColorProfileError) {
        guard let transform = try transform(from: profile, samples: samples) else { return }
        transform.apply(to: &pixels)
    }

    /// `image` with every frame converted to sRGB through its ``Image/colorProfile``, which it
    /// then no longer carries; the image itself when it has no profile.
    public static func toSRGB(_ image: Image) throws(ColorProfileError) -> Image {
        guard let profile = image.colorProfile else { return image }
        let samples: ColorSamples = profile.colorSpace == .gray ? .gray : .rgb
        var converted = image
        if let transform = try transform(from: profile, samples: samples) {
            converted = image.mappingFrames { pixels in
                var copy = pixels
                transform.apply(to: &copy)
                return copy
            }
        }
        converted.colorProfile = nil
        return converted
    }

    /// `image`'s pixels, sRGB, converted to `profile` (an RGB profile), which the image then
    /// carries so that an encoder embeds it (imgproxy Pro's `color_profile`); an image carrying a
    /// profile of its own is converted to sRGB first. Throws when `profile` is not RGB or lcms2
    /// refuses it.
    public static func fromSRGB(_ image: Image, to profile: ColorProfile) throws(ColorProfileError) -> Image {
        guard profile.colorSpace == .rgb else { throw .rejected("a result's profile must be an RGB one") }
        let transform = try ColorTransform(profile: profile, input: .rgb, towardsProfile: true)
        var converted = try toSRGB(image).mappingFrames { pixels in
            var copy = pixels
            transform.apply(to: &copy)
            return copy
        }
        converted.colorProfile = profile
        return converted
    }

    /// lcms2's compact sRGB profile, for results that state their sRGB (imgproxy Pro's
    /// `color_profile:srgb`).
    public static func sRGBProfile() throws(ColorProfileError) -> ColorProfile {
        guard let profile = cmsCreate_sRGBProfile() else { throw .rejected("lcms2 could not make the sRGB profile") }
        defer { cmsCloseProfile(profile) }
        var length: cmsUInt32Number = 0
        guard cmsSaveProfileToMem(profile, nil, &length) != 0, length > 0 else { throw .rejected("lcms2 could not write the sRGB profile") }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        guard cmsSaveProfileToMem(profile, &bytes, &length) != 0 else { throw .rejected("lcms2 could not write the sRGB profile") }
        return try ColorProfile(iccData: Data(bytes.prefix(Int(length))))
    }

    /// The cached transform from `profile` for `samples`; nil when the profile is sRGB already.
    static func transform(from profile: ColorProfile, samples: ColorSamples) throws(ColorProfileError) -> ColorTransform? {
        let input = try ColorTransform.Input(samples: samples, colorSpace: profile.colorSpace)
        switch ColorTransformCache.shared.entry(for: profile, input: input) {
        case .identity: return nil
        case .transform(let transform): return transform
        case .failed(let error): throw error
        }
    }
}
