import WebImage

/// Why a server could not be assembled from its configuration: a setting that parsed but
/// cannot be used (keys that do not pair, a preset that is no URL, a cache folder that cannot
/// be opened, a watermark or fallback image that cannot be loaded). Said as the underlying
/// error says it, so that `webimage serve` prints the same line whichever part refused.
public enum ImageServerStartError: Error, Sendable, CustomStringConvertible {
    /// `--key`, `--salt` or `--trusted-signature` cannot sign.
    case signing(URLSignatureError)
    /// A `--preset` is not a preset.
    case presets(ProcessingURLError)
    /// A cache folder of `--cache-dir` cannot be opened.
    case cacheFolder(DiskCacheError)
    /// The watermark or fallback image cannot be loaded.
    case auxiliaryImage(AuxiliaryImageError)
    /// An address to listen on (named) is held by another socket, which did not bind it with
    /// `SO_REUSEPORT`, or this server would not.
    case addressInUse(String)
    /// The source downloads' proxy or TLS settings cannot be used (why, said).
    case sourceConnection(String)

    public var description: String {
        switch self {
        case .signing(let error): "\(error)"
        case .presets(let error): "\(error)"
        case .cacheFolder(let error): "\(error)"
        case .auxiliaryImage(let error): "\(error)"
        case .sourceConnection(let reason): "the source downloads' proxy or TLS settings: \(reason)"
        case .addressInUse(let address):
            "cannot listen on \(address): the address is in use by another process (servers sharing a port each need --so-reuseport, IMGPROXY_SO_REUSEPORT)"
        }
    }
}
