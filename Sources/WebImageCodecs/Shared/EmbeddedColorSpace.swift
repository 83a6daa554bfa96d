/// The colour space a file declares for its pixels, as its decoder found it: the bytes of an
/// embedded ICC profile and/or the coding-independent code points (ITU-T H.273) of an `nclx`
/// `colr` box, an AV1 sequence header or a JPEG XL colour encoding.
///
/// The HEIF, AVIF and JPEG XL decoders read it; the ICC profile goes to ``EmbeddedColorProfile``,
/// which converts the pixels to sRGB (or keeps them, see ``ColorManagement``). The code points
/// are not applied: a file that describes a wide gamut only by them (no ICC profile) decodes
/// as stored.
struct EmbeddedColorSpace: Sendable, Hashable {
    /// The ICC profile's bytes, as stored (or, for JPEG XL, as libjxl describes the pixels it
    /// returns); nil when the file has none.
    var iccProfile: [UInt8]?
    /// The H.273 code points, when the file states them; nil when it does not.
    var codePoints: ColorCodePoints?

    /// A colour space the file does not describe: both parts nil (sRGB by convention).
    static let unspecified = EmbeddedColorSpace()
}
