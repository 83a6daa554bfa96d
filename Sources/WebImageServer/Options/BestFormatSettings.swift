/// How imgproxy Pro's `best` format chooses (its `IMGPROXY_BEST_FORMAT_*` settings): the
/// candidates are the preferred formats (JPEG, PNG and GIF without any, imgproxy's default) and
/// those the client's `Accept` allows; the result is the smallest that keeps the picture.
public struct BestFormatSettings: Sendable, Hashable {
    /// Images whose complexity (the mean luma step between neighbouring pixels, 0…255) is under
    /// this are written losslessly where the candidate format can be.
    public var complexityThreshold = 5.5
    /// Results over this many megapixels are written in the one candidate that suits them best
    /// (AVIF, WebP, JPEG XL first for complex images; WebP and PNG for simple ones) rather than
    /// in all of them; 0 for no bound.
    public var maxResolution = 0.0
    /// Whether URLs naming no format are written as `best`.
    public var byDefault = false
    /// Whether `skip_processing` and SVG sources answered as SVG still apply with `best`.
    public var allowSkips = false

    /// imgproxy's defaults.
    public init() {}

    /// The cache key's part.
    var canonical: String {
        "best:\(CanonicalNumber.spell(complexityThreshold)):\(CanonicalNumber.spell(maxResolution)):\(allowSkips ? 1 : 0)"
    }
}
