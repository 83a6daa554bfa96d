/// How decoded pixels hold their colour, for ``ColorConversion``: what the bytes of a
/// ``PixelBuffer`` mean before they are converted to sRGB.
public enum ColorSamples: Sendable, Hashable {
    /// RGBA8: red, green, blue, then alpha (which conversion leaves alone).
    case rgb
    /// Grey repeated in red, green and blue, then alpha: how a greyscale JPEG or PNG decodes.
    /// A grey profile reads the red byte; an RGB profile reads all three.
    case gray
    /// Four bytes of CMYK stored inverted (0 = full ink), as Adobe's CMYK and YCCK JPEGs hold
    /// it; converted to opaque RGBA8.
    case invertedCMYK
}
