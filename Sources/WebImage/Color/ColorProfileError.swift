/// Why an embedded ICC profile was not used. Never a decoding failure: the image decodes with
/// its pixels as stored and carries the reason in ``Image/colorProfileWarning``.
public enum ColorProfileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The bytes are not a well-formed ICC profile; the string says what is wrong.
    case malformed(String)
    /// The profile is larger than ``ColorProfile/maximumByteCount`` (its size in bytes).
    case tooLarge(Int)
    /// A well-formed profile that cannot describe these pixels, such as a CMYK profile in an
    /// RGB image, or a colour space WebImage does not convert from (Lab, multi-channel).
    case unsupported(String)
    /// The colour engine (lcms2) refused the profile or could not build a transform from it.
    case rejected(String)

    public var description: String {
        switch self {
        case .malformed(let why): "malformed ICC profile: \(why)"
        case .tooLarge(let size): "ICC profile too large: \(size) bytes exceeds \(ColorProfile.maximumByteCount)"
        case .unsupported(let why): "unsupported ICC profile: \(why)"
        case .rejected(let why): "ICC profile rejected by lcms2: \(why)"
        }
    }
}
