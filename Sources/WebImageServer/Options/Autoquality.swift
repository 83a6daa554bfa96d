import WebImage

/// How a result's quality is chosen when its URL names none (imgproxy Pro's `autoquality` option
/// and `IMGPROXY_AUTOQUALITY_*` settings): the highest quality within a file size, or the lowest
/// whose DSSIM against the unencoded result is within the target, by encoding it several times.
public struct Autoquality: Sendable, Hashable {
    /// What the quality is chosen by.
    public enum Method: String, Sendable, Hashable, CaseIterable {
        /// Not chosen: the URL's, the format's or the server's quality.
        case none
        /// The highest quality whose file is at most ``Autoquality/target`` bytes.
        case size
        /// The lowest quality whose DSSIM is at most ``Autoquality/target`` (within the allowed error).
        case dssim
        /// imgproxy's neural-network prediction of the DSSIM quality: with no model loaded here
        /// it is the DSSIM search, as imgproxy falls back to it for a format without a model.
        case ml
    }

    /// What the quality is chosen by.
    public var method = Method.none
    /// The file size in bytes (`size`) or the DSSIM (`dssim`, `ml`) aimed at.
    public var target = 0.02
    /// The lowest quality chosen, for formats ``formatMin`` leaves out.
    public var minQuality = 70
    /// The lowest quality by format.
    public var formatMin: [ImageFormat: Int] = [.avif: 60]
    /// The highest quality chosen, for formats ``formatMax`` leaves out.
    public var maxQuality = 80
    /// The highest quality by format.
    public var formatMax: [ImageFormat: Int] = [.avif: 65]
    /// How far the DSSIM may be from the target for a quality to be taken at once.
    public var allowedError = 0.002
    /// The largest result, in megapixels, whose quality is chosen; 0 for no bound.
    public var maxResolution = 0.0

    /// imgproxy's defaults: off, a DSSIM of 0.02 within 0.002, qualities 70…80 (AVIF 60…65).
    public init() {}

    /// The formats whose quality can be chosen: the lossy ones.
    static let lossyFormats: Set<ImageFormat> = [.jpeg, .webp, .avif, .heic, .jxl]

    /// The qualities searched for `format`, lowest first (an inverted pair is read low to high).
    public func qualities(for format: ImageFormat) -> ClosedRange<Int> {
        let low = formatMin[format] ?? minQuality, high = formatMax[format] ?? maxQuality
        return min(low, high)...max(low, high)
    }

    /// The cache key's part, nil when off.
    var canonical: String? {
        guard method != .none else { return nil }
        func spelled(_ qualities: [ImageFormat: Int]) -> String {
            qualities.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue).\($0.value)" }.joined(separator: ",")
        }
        return "aq:\(method.rawValue):\(CanonicalNumber.spell(target)):\(minQuality):\(maxQuality):\(spelled(formatMin)):"
            + "\(spelled(formatMax)):\(CanonicalNumber.spell(allowedError)):\(CanonicalNumber.spell(maxResolution))"
    }
}
