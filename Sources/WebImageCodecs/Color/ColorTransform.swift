import CLCMS2
import Foundation
import WebImage

/// An lcms2 transform from one embedded profile to sRGB, over RGBA8-sized pixels in place;
/// for an RGB matrix/TRC profile, the faster ``MatrixShaper`` that agrees with it.
///
/// Built once per profile and kept by ``ColorTransformCache``. lcms2 lets one transform run on
/// several threads at once (since 2.3 each `cmsDoTransform` call copies the one-pixel cache),
/// so a transform is shared by every decode of that profile. Each has its own lcms2 context,
/// whose error handler writes lcms2's message into a buffer of this transform.
final class ColorTransform: @unchecked Sendable {
    /// The pixels a transform reads, in lcms2's terms.
    enum Input: Sendable, Hashable {
        /// RGBA8 through an RGB profile.
        case rgb
        /// The red byte of RGBA8 through a grey profile.
        case grayInRGBA
        /// Inverted CMYK through a CMYK profile.
        case invertedCMYK

        /// The input for `samples` under a profile of `colorSpace`; throws
        /// ``ColorProfileError/unsupported(_:)`` when the profile cannot describe such pixels.
        init(samples: ColorSamples, colorSpace: ColorProfile.ColorSpace) throws(ColorProfileError) {
            switch (samples, colorSpace) {
            case (.rgb, .rgb), (.gray, .rgb): self = .rgb
            case (.gray, .gray): self = .grayInRGBA
            case (.invertedCMYK, .cmyk): self = .invertedCMYK
            default:
                let pixels = switch samples {
                case .rgb: "RGB"
                case .gray: "grey"
                case .invertedCMYK: "CMYK"
                }
                throw .unsupported("a \(colorSpace) profile for \(pixels) pixels")
            }
        }

        var lcmsFormat: cmsUInt32Number {
            switch self {
            case .rgb: WI_LCMS_TYPE_RGBA_8
            case .grayInRGBA: WI_LCMS_TYPE_GRAY_IN_RGBA_8
            case .invertedCMYK: WI_LCMS_TYPE_CMYK_8_REV
            }
        }
    }

    /// Room for lcms2's first error message.
    private static let messageCapacity = 256

    let input: Input
    private let context: cmsContext
    private let transform: cmsHTRANSFORM
    private let message: UnsafeMutablePointer<CChar>
    /// The fixed-point path for an RGB matrix/TRC profile, when it agrees with lcms2.
    private let shaper: MatrixShaper?

    /// A transform from `profile`, read as `input`, to lcms2's built-in sRGB (or, `towardsProfile`,
    /// from sRGB RGBA to `profile`, an RGB profile): perceptual intent, or relative colorimetric
    /// when the profile has no perceptual rendering; lcms2's default flags, as Pillow's ImageCms
    /// uses them. Throws ``ColorProfileError/rejected(_:)`` with lcms2's message when it cannot.
    init(profile: ColorProfile, input: Input, towardsProfile: Bool = false) throws(ColorProfileError) {
        let message = UnsafeMutablePointer<CChar>.allocate(capacity: Self.messageCapacity)
        message.initialize(repeating: 0, count: Self.messageCapacity)
        guard let context = cmsCreateContext(nil, message) else {
            message.deallocate()
            throw .rejected("lcms2 could not create a context")
        }
        cmsSetLogErrorHandlerTHR(context, Self.recordError)
        func fail(_ what: String) -> ColorProfileError {
            let said = String(cString: message)
            cmsDeleteContext(context)
            message.deallocate()
            return .rejected(said.isEmpty ? what : "\(what): \(said)")
        }
        let source = profile.data.withUnsafeBytes { bytes in
            cmsOpenProfileFromMemTHR(context, bytes.baseAddress, cmsUInt32Number(bytes.count))
        }
        guard let source else { throw fail("cannot open the profile") }
        guard let sRGB = cmsCreate_sRGBProfileTHR(context) else {
            cmsCloseProfile(source)
            throw fail("cannot make the sRGB profile")
        }
        let use = towardsProfile ? LCMS_USED_AS_OUTPUT : LCMS_USED_AS_INPUT
        let intent = cmsIsIntentSupported(source, cmsUInt32Number(INTENT_PERCEPTUAL), cmsUInt32Number(use)) != 0
            ? INTENT_PERCEPTUAL : INTENT_RELATIVE_COLORIMETRIC
        let transform = towardsProfile
            ? cmsCreateTransformTHR(context, sRGB, WI_LCMS_TYPE_RGBA_8, source, WI_LCMS_TYPE_RGBA_8, cmsUInt32Number(intent), 0)
            : cmsCreateTransformTHR(context, source, input.lcmsFormat, sRGB, WI_LCMS_TYPE_RGBA_8, cmsUInt32Number(intent), 0)
        let shaper = input == .rgb && !towardsProfile ? MatrixShaper(source: source, destination: sRGB) : nil
        cmsCloseProfile(source)
        cmsCloseProfile(sRGB)
        guard let transform else { throw fail("cannot build a transform to sRGB") }
        self.input = input
        self.context = context
        self.transform = transform
        self.message = message
        self.shaper = shaper.flatMap { $0.agrees(with: transform) ? $0 : nil }
    }

    /// Whether a decode that resamples converts after the resample, on the fewer pixels of its
    /// result, rather than each band before it: RGB and grey are resampled in their own space
    /// and converted afterwards, as libvips's thumbnail converts after its shrink (a 1024 px PNG
    /// in Display P3 to 256 px: the conversion was a tenth of the thumbnail's time). CMYK has to
    /// become RGB before it can be resampled.
    var convertsAfterResampling: Bool { input != .invertedCMYK }

    /// Whether pixels go through the ``MatrixShaper`` rather than lcms2.
    var usesMatrixShaper: Bool { shaper != nil }

    deinit {
        cmsDeleteTransform(transform)
        cmsDeleteContext(context)
        message.deallocate()
    }

    /// Keeps lcms2's first message in the context's buffer.
    private static let recordError: cmsLogErrorHandlerFunction = { context, _, text in
        guard let context, let text, let buffer = cmsGetContextUserData(context)?.assumingMemoryBound(to: CChar.self),
              buffer.pointee == 0 else { return }
        _ = strncpy(buffer, text, messageCapacity - 1)
    }

    /// From this many pixels up (a megapixel), a conversion is split into bands converted on
    /// every core at once: libjpeg and libpng decode on one core, and a 12 MP photo's colours
    /// then cost a fraction of its decode instead of half of it.
    static let bandedPixels = 1 << 20

    /// Converts `pixels` to sRGB in place. RGB and grey keep their alpha; CMYK becomes opaque.
    func apply(to pixels: inout PixelBuffer) {
        pixels.bytes.withUnsafeMutableBytes { apply(to: $0) }
    }

    /// Converts the RGBA8-sized pixels in `bytes` (whole pixels) to sRGB in place, as the
    /// `PixelBuffer` form does: a streaming decoder of CMYK converts each band of rows before
    /// it reaches the resampler.
    func apply(to bytes: UnsafeMutableRawBufferPointer) {
        let count = bytes.count / 4
        let bands = count >= Self.bandedPixels ? min(ProcessInfo.processInfo.activeProcessorCount, 8) : 1
        if bands > 1 {
            let perBand = (count + bands - 1) / bands
            let shared = SharedPixels(bytes: bytes)
            DispatchQueue.concurrentPerform(iterations: bands) { band in
                let range = min(count, band * perBand) * 4 ..< min(count, (band + 1) * perBand) * 4
                convertBand(UnsafeMutableRawBufferPointer(rebasing: shared.bytes[range]))
            }
        } else {
            convertBand(bytes)
        }
    }

    /// A band of the pixels of one conversion, handed to another thread; each band writes
    /// only its own pixels, and the conversion waits for every band before it returns.
    struct SharedPixels: @unchecked Sendable {
        let bytes: UnsafeMutableRawBufferPointer
    }

    /// Converts the whole pixels in `bytes` on this thread; CMYK comes out opaque.
    func convertBand(_ bytes: UnsafeMutableRawBufferPointer) {
        convert(bytes)
        if input == .invertedCMYK {
            for alpha in stride(from: 3, to: bytes.count, by: 4) { bytes[alpha] = 255 }
        }
    }

    /// Converts the pixels in `bytes` (whole pixels) through the shaper or lcms2.
    private func convert(_ bytes: UnsafeMutableRawBufferPointer) {
        if let shaper { return shaper.apply(to: bytes) }
        guard let base = bytes.baseAddress else { return }
        // lcms2 counts pixels in 32 bits: a buffer goes over in chunks.
        let chunk = 1 << 24
        var start = 0
        let count = bytes.count / 4
        while start < count {
            let n = min(chunk, count - start)
            let at = base + start * 4
            cmsDoTransform(transform, at, at, cmsUInt32Number(n))
            start += n
        }
    }
}
