import Foundation
import WebImage

/// What one decode does with the ICC profile its file embeds: every decoder hands the
/// profile's bytes here (JPEG `APP2`, PNG `iCCP`, WebP `ICCP`, HEIF/AVIF `colr`, JPEG XL)
/// with the kind of pixels it decodes, converts them through it, and lets it label the image.
///
/// A profile that is missing, sRGB already, damaged or unfit for the pixels never fails the
/// decode: the pixels stay as they are and ``warning`` says why when there is a reason.
struct EmbeddedColorProfile {
    /// The profile, when the file has one that reads as ICC (whether or not it fits the pixels).
    let profile: ColorProfile?
    /// How the decoded pixels hold their colour.
    let samples: ColorSamples
    /// What the options ask for.
    let management: ColorManagement
    /// Why the profile is not used, once that is known.
    private(set) var warning: ColorProfileError?
    /// What lcms2 reads through the profile; nil without a profile that fits the pixels.
    private let input: ColorTransform.Input?
    /// The answer of ``transform()``, once asked: a frame reader converts every frame.
    private var resolved: ColorTransform??

    /// The profile in `iccData` (nil or empty: none) for pixels held as `samples`, decoded
    /// under `management`.
    init(iccData: Data?, samples: ColorSamples, management: ColorManagement) {
        self.init(samples: samples, management: management) { iccData }
    }

    /// The profile in `iccData` for RGBA pixels from a decoder that expands grey into red, green
    /// and blue (libheif, libavif, libjxl): grey samples under a grey profile, RGB otherwise.
    init(iccDataOfRGBA iccData: [UInt8]?, management: ColorManagement) {
        let data = iccData.map { Data($0) }
        let gray = data.flatMap { try? ColorProfile(iccData: $0) }?.colorSpace == .gray
        self.init(iccData: data, samples: gray ? .gray : .rgb, management: management)
    }

    /// The profile that `extract` takes out of its container (nil or empty: none; a thrown
    /// error, such as a damaged PNG `iCCP` chunk, becomes the ``warning``).
    init(samples: ColorSamples, management: ColorManagement,
         extract: () throws(ColorProfileError) -> Data?) {
        self.samples = samples
        self.management = management
        var profile: ColorProfile?
        var input: ColorTransform.Input?
        do {
            if let iccData = try extract(), !iccData.isEmpty {
                let read = try ColorProfile(iccData: iccData)
                profile = read
                input = try ColorTransform.Input(samples: samples, colorSpace: read.colorSpace)
            }
        } catch {
            warning = error
        }
        self.profile = profile
        self.input = input
    }

    /// Whether the pixels are converted: always for CMYK (RGBA cannot hold it), otherwise
    /// unless the options keep the stored colours.
    private var converts: Bool {
        management == .convertToSRGB || samples == .invertedCMYK
    }

    /// The transform that brings the pixels to sRGB, or nil when they stay as they are: no
    /// profile, an sRGB one, one unfit for the pixels, ``ColorManagement/preserve``, or a
    /// profile lcms2 refuses (then recorded in ``warning``).
    mutating func transform() -> ColorTransform? {
        if let resolved { return resolved }
        var transform: ColorTransform?
        if converts, let profile, input != nil {
            do {
                transform = try ColorConversion.transform(from: profile, samples: samples)
            } catch {
                warning = error
            }
        }
        resolved = .some(transform)
        return transform
    }

    /// Converts `pixels` as ``transform()`` decides.
    mutating func convert(_ pixels: inout PixelBuffer) {
        transform()?.apply(to: &pixels)
    }

    /// The profile of the decoded pixels: the embedded one when they were kept as stored.
    var profileOfPixels: ColorProfile? {
        converts || input == nil ? nil : profile
    }

    /// Sets the image's ``Image/colorProfile`` and ``Image/colorProfileWarning``.
    func label(_ image: inout Image) {
        image.colorProfile = profileOfPixels
        image.colorProfileWarning = warning
    }
}
