import WebImage

/// How results are encoded beyond their quality: imgproxy's advanced compression settings
/// (`IMGPROXY_JPEG_NO_SUBSAMPLE`, `IMGPROXY_WEBP_COMPRESSION`, `_WEBP_SMART_SUBSAMPLE`,
/// `_AVIF_SUBSAMPLE`) and imgproxy Pro's `jpeg_options`, `webp_options`, `avif_options` and
/// `dpi` (progressive JPEG and the PNG options are ``ProcessingOptions``' own).
public struct EncoderSettings: Sendable, Hashable {
    /// How a WebP result is compressed.
    public enum WebPCompression: String, Sendable, Hashable, CaseIterable {
        /// libwebp's lossy coding at the quality.
        case lossy
        /// Lossless coding after libwebp's near-lossless preprocessing at the quality.
        case nearLossless = "near_lossless"
        /// Exact lossless coding.
        case lossless
    }

    /// When an AVIF result halves its chroma.
    public enum AVIFSubsample: String, Sendable, Hashable, CaseIterable {
        /// Below quality 90 only.
        case auto
        /// Always.
        case on
        /// Never.
        case off

        /// The encoder's setting.
        var chromaSubsampling: ChromaSubsampling {
            switch self {
            case .auto: .automatic
            case .on: .subsampled
            case .off: .full
            }
        }
    }

    /// Whether JPEG results keep chroma at full resolution (4:4:4) rather than halved (4:2:0).
    public var jpegNoSubsample = false
    /// How WebP results are compressed.
    public var webpCompression = WebPCompression.lossy
    /// Whether lossy WebP results convert to YUV with libwebp's sharp method.
    public var webpSmartSubsample = false
    /// What a WebP result's encoder is tuned for, or nil for the server's `--webp-preset`.
    public var webpPreset: ImageContentKind?
    /// When AVIF results halve their chroma.
    public var avifSubsample = AVIFSubsample.auto
    /// The density written into JPEG and PNG results, in dots per inch, or 0 for none (imgproxy Pro's `dpi`).
    public var dpi = 0

    /// Imgproxy's defaults: 4:2:0 JPEG, lossy WebP, AVIF subsampled below quality 90, no density.
    public init() {}

    /// `encoding` with these settings for a result in `format`.
    func applied(to encoding: ImageEncodeOptions, format: ImageFormat) -> ImageEncodeOptions {
        var encoding = encoding
        encoding.dotsPerInch = dpi > 0 ? dpi : nil
        switch format {
        case .jpeg:
            encoding.chromaSubsampling = jpegNoSubsample ? .full : .subsampled
        case .webp:
            encoding.lossless = webpCompression == .lossless
            encoding.nearLossless = webpCompression == .nearLossless
            encoding.sharpYUV = webpSmartSubsample
            encoding.contentKind = webpPreset
        case .avif:
            encoding.chromaSubsampling = avifSubsample.chromaSubsampling
        default:
            break
        }
        return encoding
    }

    /// The cache key's part, nil with the defaults.
    var canonical: String? {
        guard self != EncoderSettings() else { return nil }
        return "enc:\(jpegNoSubsample ? 1 : 0):\(webpCompression.rawValue):\(webpSmartSubsample ? 1 : 0):"
            + "\(webpPreset?.rawValue ?? "server"):\(avifSubsample.rawValue):\(dpi)"
    }
}
