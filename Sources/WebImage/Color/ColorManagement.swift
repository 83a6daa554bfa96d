/// What decoding does with an image's embedded ICC profile (``ImageDecodeOptions/colorManagement``).
public enum ColorManagement: Sendable, Hashable {
    /// Convert the pixels to sRGB through the profile (lcms2, perceptual intent, relative
    /// colorimetric when the profile has no perceptual rendering), so that they show the
    /// colours the file means wherever sRGB is assumed; the image then carries no profile.
    /// The default. A profile that is sRGB already costs nothing; one that cannot be used
    /// leaves the pixels as stored (``Image/colorProfileWarning`` says why).
    case convertToSRGB
    /// Keep the pixels as stored and carry the profile in ``Image/colorProfile``, for an
    /// encoder to embed again: the lossless choice for wide-gamut (Display P3) pictures.
    /// CMYK JPEGs are converted to sRGB all the same, since RGBA pixels cannot hold CMYK.
    case preserve
}
