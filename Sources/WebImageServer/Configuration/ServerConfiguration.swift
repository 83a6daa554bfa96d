import Foundation
import Logging
import WebImage

/// Every setting of `webimage serve` and its default, in one place (also named
/// ``ImageServer/Configuration``).
///
/// A configuration starts from the defaults written here; ``init(environment:)`` lays the
/// environment over them (imgproxy's `IMGPROXY_*` names where imgproxy has the setting,
/// `WEBIMAGE_*` otherwise), and `webimage serve` lays its flags over that. Each setting is
/// described once, in ``settings``, which reads its text from either place with the same
/// checks and gives `serve --help` and the Configuration article's table (WebImageServer.docc) their words and defaults.
public struct ServerConfiguration: Sendable, Equatable {
    // MARK: Listening

    /// The address to listen on.
    public var host = "127.0.0.1"
    /// The port to listen on; 0 lets the system choose one.
    public var port = 8080

    /// Seconds an image request may take before it is answered 504 and its work cancelled.
    public var timeout = 10.0
    /// Seconds a connection has to send a complete request head, from its opening or its
    /// previous answer; an idle keep-alive connection closes after it too.
    public var readRequestTimeout = 10.0
    /// The most connections open at once; one past it is closed as soon as it is accepted.
    public var maxClients = 2048
    /// The origin every answer allows to read it (`Access-Control-Allow-Origin`, with
    /// `Access-Control-Allow-Methods: GET, OPTIONS`), as imgproxy's `IMGPROXY_ALLOW_ORIGIN` and
    /// thumbor's `ACCESS_CONTROL_ALLOW_ORIGIN_HEADER`; nil: no CORS fields.
    public var allowOrigin: String?

    // MARK: URLs and signing

    /// The URL forms answered.
    public var urlFormat = ServedURLFormat.both
    /// Signing keys, in hexadecimal, one per salt; none turns imgproxy's signing off.
    public var keys: [String] = []
    /// Signing salts, in hexadecimal, one per key.
    public var salts: [String] = []
    /// Bytes of the digest a signature keeps, 1…32.
    public var signatureSize = 32
    /// Signatures accepted for any path while imgproxy's signing is on.
    public var trustedSignatures: [String] = []
    /// thumbor's security key; with one, thumbor URLs must be signed.
    public var thumborKey: String?
    /// Whether `unsafe` thumbor URLs are answered although ``thumborKey`` is set (thumbor's
    /// `ALLOW_UNSAFE_URL`, on in thumbor, off here).
    public var thumborAllowUnsafeURL = false
    /// Presets, `NAME=OPTION/OPTION/…`.
    public var presets: [String] = []

    // MARK: Sources

    /// URL prefixes sources must start with; empty allows any.
    public var allowedSources: [String] = []
    /// Whether sources resolving to loopback addresses may be fetched.
    public var allowLoopbackSources = false
    /// Whether sources resolving to private and other special addresses may be fetched.
    public var allowPrivateSources = false
    /// What every path starts with (`/images`), or empty: other paths are answered 404.
    public var pathPrefix = ""
    /// Whether imgproxy URLs start from the browser's client hints (`Sec-CH-DPR`, `DPR`,
    /// `Sec-CH-Width`, `Width`); answers then vary by them.
    public var enableClientHints = false
    /// Put before every imgproxy source URL as written.
    public var baseURL = ""
    /// `PATTERN=REPLACEMENT` rewrites of imgproxy source URLs, applied in order before
    /// ``baseURL`` (see ``URLReplacement``).
    public var urlReplacements: [String] = []
    /// Whether the last segment of a base64 source with more than one is a file name.
    public var base64URLIncludesFilename = false
    /// What separates an imgproxy option's name and arguments.
    public var argumentsSeparator: Character = ":"
    /// Whether imgproxy URLs name presets only, in the one segment before the source.
    public var onlyPresets = false
    /// The imgproxy options URLs may use, by any of their names; empty allows all.
    public var allowedProcessingOptions: [String] = []
    /// How a thumbor URL's image without a scheme is read.
    public var thumborLoader = ThumborLoader.http
    /// The folder `local:///` sources are read from, or nil to refuse them. `webimage serve`
    /// leaves none unset while it ``listensOnLoopback``: it serves the current folder then.
    public var localRoot: String?
    /// Seconds a source download may take in all, from its request to its last byte, and so
    /// also the longest it may stall.
    public var downloadTimeout = 5.0
    /// Redirects a source download follows.
    public var maxRedirects = 10

    // MARK: Limits

    /// The most megapixels a source may declare, all frames of an animation together (unless
    /// ``maxAnimationFrameResolution`` is set), checked from its header before decoding.
    public var maxSrcResolution = 50.0
    /// The largest source download, in bytes.
    public var maxSrcFileSize = 64 << 20
    /// The most frames of an animated source processed; 1 makes animations still.
    public var maxAnimationFrames = 100
    /// The most megapixels one frame of an animated source may declare; 0 counts every frame
    /// together against ``maxSrcResolution`` instead.
    public var maxAnimationFrameResolution = 0.0
    /// Whether imgproxy URLs may use the security options that change these limits for
    /// themselves (`max_src_resolution`, `max_src_file_size`, `max_animation_frames`,
    /// `max_animation_frame_resolution`, `max_result_dimension`); otherwise they are 403.
    public var allowSecurityOptions = false
    /// The most megapixels a result may have, all frames together.
    public var maxResultResolution = 50.0
    /// thumbor's `MAX_WIDTH`: the widest a thumbor URL may ask for, and the width a wider source
    /// is shrunk to first (by ``ThumborSourceBound``'s rule); 0 for no bound.
    public var thumborMaxWidth = 0
    /// thumbor's `MAX_HEIGHT`, as ``thumborMaxWidth`` for the height.
    public var thumborMaxHeight = 0

    /// ``thumborMaxWidth`` × ``thumborMaxHeight`` as thumbor URLs are bounded by it, or nil when both are 0.
    public var thumborSourceBound: ThumborSourceBound? {
        thumborMaxWidth > 0 || thumborMaxHeight > 0 ? ThumborSourceBound(width: thumborMaxWidth, height: thumborMaxHeight) : nil
    }
    /// Images processed at once.
    public var concurrency = 2 * ProcessInfo.processInfo.activeProcessorCount
    /// Requests that may wait for processing; more are answered 429.
    public var maxQueue = 1000

    // MARK: Output

    /// The encoder quality when a URL gives none, 1…100.
    public var quality = 80
    /// `Cache-Control` max-age of images, in seconds.
    public var ttl = 31_536_000
    /// Whether answers carry an `ETag` (naming the result's bytes) and a client's
    /// `If-None-Match` is honoured, and sent on to the origin when the result is made from a
    /// download (imgproxy's `IMGPROXY_USE_ETAG`).
    public var useETag = true
    /// Whether answers carry a `Last-Modified` (the origin's, when the result was made from a
    /// download that had one, else when it was made) and a client's `If-Modified-Since` is
    /// honoured and sent on to the origin (imgproxy's `IMGPROXY_USE_LAST_MODIFIED`).
    public var useLastModified = true
    /// A time no origin's `Last-Modified` is answered as earlier than, and before which a
    /// client's `If-Modified-Since` is not sent on (imgproxy's `IMGPROXY_LAST_MODIFIED_BUSTER`):
    /// moved forward, it makes every client copy from before it stale.
    public var lastModifiedBuster: Date?
    /// Whether a result is answered with its origin's `Cache-Control`, or `max-age` until its
    /// `Expires`, in place of ``ttl`` (imgproxy's `IMGPROXY_CACHE_CONTROL_PASSTHROUGH`).
    public var cacheControlPassthrough = false
    /// Whether a URL without a format is answered in WebP when `Accept` lists it.
    public var autoWebp = false
    /// Whether a URL without a format is answered in AVIF when `Accept` lists it (in the
    /// order ``acceptedFormats(for:)`` gives).
    public var autoAvif = false
    /// Sources of these formats are answered with their own bytes unless a URL asks for
    /// another format (imgproxy's `IMGPROXY_SKIP_PROCESSING_FORMATS`); a URL's `skp` replaces them.
    public var skipProcessingFormats: [ImageFormat] = []
    /// Whether SVG sources are drawn when a URL names no format, rather than answered as
    /// sanitized SVG (imgproxy's `IMGPROXY_ALWAYS_RASTERIZE_SVG`).
    public var alwaysRasterizeSVG = false
    /// Whether imgproxy URLs keep a source's EXIF copyright tags in JPEG, PNG, WebP, AVIF and HEIC results unless
    /// their `kcr` says otherwise (imgproxy's `IMGPROXY_KEEP_COPYRIGHT`, on by default).
    public var keepCopyright = true
    /// Whether thumbor URLs keep them (thumbor's `PRESERVE_EXIF_COPYRIGHT_INFO`, off by default).
    public var thumborPreserveExifCopyrightInfo = false
    /// The pixels an inch of an SVG source's absolute units counts for (thumbor's `SVG_DPI`;
    /// CSS's 96 by default).
    public var svgDPI = 96.0
    /// Whether a URL without a format is answered in JPEG XL when `Accept` lists it (before AVIF).
    public var autoJxl = false
    /// Whether any URL, one naming a format too, is answered in JPEG XL when `Accept` lists it.
    public var enforceJxl = false
    /// Whether any URL, one naming a format too, is answered in WebP when `Accept` lists it.
    public var enforceWebp = false
    /// Whether any URL, one naming a format too, is answered in AVIF when `Accept` lists it (in the
    /// order ``acceptedFormats(for:)`` gives).
    public var enforceAvif = false
    /// Whether a URL without a format is answered in HEIC when `Accept` lists `image/heif` or
    /// `image/heic` (thumbor's `AUTO_HEIF`).
    public var autoHeif = false
    /// Whether a URL without a format is answered in JPEG when `Accept` lists `image/jpeg`,
    /// `image/jpg`, `image/*` or `*/*` (thumbor's `AUTO_JPG`).
    public var autoJpg = false
    /// Whether a URL without a format is answered in PNG when `Accept` lists `image/png` or
    /// `image/*` (thumbor's `AUTO_PNG`), last.
    public var autoPng = false
    /// Whether a thumbor URL's opaque, still PNG is answered in JPEG when no format is named or
    /// chosen from `Accept` (thumbor's `AUTO_PNG_TO_JPG`; the `autojpg` filter turns it on or off).
    public var autoPngToJpg = false
    /// The formats URLs without one are answered in, the first `Accept` takes, in this order
    /// (thumbor's `AUTO_IMAGE_FORMAT_PREFERENCE`); when given, the `auto` flags are not read.
    public var autoImageFormatPreference: [ImageFormat] = []

    // MARK: Watermark and fallback

    /// The image `watermark` lays over results, or nil: the option is then accepted and does nothing.
    public var watermark: AuxiliaryImageSource?
    /// The watermark's base opacity, 0…1, multiplied by each URL's (imgproxy's `IMGPROXY_WATERMARK_OPACITY`).
    public var watermarkOpacity = 1.0
    /// The image processed with a URL's options when its source cannot be loaded (missing, the
    /// origin failing or too slow, not an image), or nil to answer the error.
    public var fallbackImage: AuxiliaryImageSource?
    /// The status a fallback image is answered with.
    public var fallbackImageHTTPCode = 200
    /// `Cache-Control` max-age of a fallback image, in seconds: short, so that the real image
    /// is asked for again soon; 0 takes ``ttl``, as imgproxy's `IMGPROXY_FALLBACK_IMAGE_TTL` does.
    public var fallbackImageTTL = 60

    // MARK: Caches

    /// The folder of the source and result disk caches (``cacheSubfolders``); nil: sources
    /// in WebImage's default cache folder, results in memory only. Both stay within ``cacheSize``.
    public var cacheDir: String?
    /// The most bytes the local disk caches hold, sources and results half each; trimmed
    /// in the background, the least recently used entries first.
    public var cacheSize = 1 << 30
    /// The subfolders of ``cacheDir`` that hold the source and the result disk caches.
    public static let cacheSubfolders = (sources: "sources", results: "results")
    /// A Redis shared by instances (`redis://HOST[:PORT][/DB]`), or nil for local caches only.
    public var redisURL: String?
    /// Seconds an entry lives in Redis.
    public var redisTTL = 7 * 24 * 3600

    // MARK: Object storage

    /// Whether `s3://bucket/key` sources are loaded (imgproxy's `IMGPROXY_USE_S3`); refused when off.
    public var useS3 = false
    /// The S3-compatible endpoint (`https://host[:port]`), or nil for AWS's regional one.
    public var s3Endpoint: String?
    /// The region requests to object storage are signed for (imgproxy's default).
    public var s3Region = "us-west-1"
    /// Whether the bucket is named in the path (`endpoint/bucket/key`) rather than the host.
    public var s3PathStyle = true
    /// The access key ID requests to object storage are signed with.
    public var s3AccessKeyID: SecretSetting?
    /// Its secret access key.
    public var s3SecretAccessKey: SecretSetting?
    /// The session token of temporary credentials.
    public var s3SessionToken: SecretSetting?
    /// Object storage shared by instances for results (`s3://bucket[/prefix]`), the tier below
    /// Redis (or the local disk when there is no Redis), or nil for none.
    public var resultStorage: String?

    // MARK: Logs

    /// Seconds a log line may wait in memory to be written with others; 0 writes each at once.
    public var logInterval = 0.1
    /// The least level a line needs to be written (imgproxy's `IMGPROXY_LOG_LEVEL`): at `.info`,
    /// the default, one line per image request; at `.warning` or above, none of them, as an
    /// nginx with `access_log off`.
    public var logLevel: Logger.Level = .info

    /// The defaults.
    public init() {}

    /// The defaults with the settings `environment` gives laid over them; throws
    /// ``ConfigurationError`` naming the first variable whose value is not valid. Empty
    /// variables count as unset.
    public init(environment: [String: String]) throws(ConfigurationError) {
        for setting in Self.settings {
            guard let variable = setting.variable, let text = environment[variable], !text.isEmpty else { continue }
            try setting.apply(text, to: &self, from: variable)
        }
    }

    /// Sets the setting whose flag is `flag` (`quality`) from `text`, as given on the command
    /// line; throws ``ConfigurationError`` for a value it does not take.
    public mutating func set(flag: String, to text: String) throws(ConfigurationError) {
        guard let setting = Self.settings.first(where: { $0.flag == flag }) else {
            throw ConfigurationError(source: "--\(flag)", reason: "is not a setting", isUsage: true)
        }
        try setting.apply(text, to: &self, from: "--\(flag)")
    }

    /// Whether ``host`` is a loopback address or `localhost`: only this machine can ask.
    public var listensOnLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// The formats a URL of `form` without one may be answered in, in order of preference: the
    /// ``autoImageFormatPreference`` when given (then the enforced formats it leaves out), else
    /// those the `auto` flags turn on, in imgproxy's order for its URLs (JPEG XL, AVIF, WebP,
    /// then thumbor's HEIC, JPEG and PNG) and in thumbor's for its URLs (WebP before AVIF, JPEG
    /// before HEIC).
    public func acceptedFormats(for form: ProcessingURLForm) -> [ImageFormat] {
        guard autoImageFormatPreference.isEmpty else {
            return autoImageFormatPreference + enforcedFormats.filter { !autoImageFormatPreference.contains($0) }
        }
        let order: [ImageFormat] = form == .thumbor ? [.jxl, .webp, .avif, .jpeg, .heic, .png] : [.jxl, .avif, .webp, .heic, .jpeg, .png]
        let on: Set<ImageFormat> = Set([(ImageFormat.jxl, autoJxl || enforceJxl), (.avif, autoAvif || enforceAvif),
                                        (.webp, autoWebp || enforceWebp), (.heic, autoHeif), (.jpeg, autoJpg), (.png, autoPng)]
            .filter(\.1).map(\.0))
        return order.filter(on.contains)
    }

    /// The accepted formats that an opaque still PNG's JPEG (``autoPngToJpg``, the `autojpg`
    /// filter) goes before, for a URL of `form`: thumbor's order without a preference ranks it
    /// with JPEG, before HEIC and PNG; otherwise it is the last resort, after every accepted format.
    public func formatsOpaquePNGToJPEGOutranks(for form: ProcessingURLForm) -> [ImageFormat] {
        form == .thumbor && autoImageFormatPreference.isEmpty ? [.heic, .png] : []
    }

    /// The format a name of thumbor's `AUTO_IMAGE_FORMAT_PREFERENCE` stands for (`webp`, `avif`,
    /// `jpg`/`jpeg`, `heif`/`heic`, `png`, and `jxl` too), whatever its case; nil for any other.
    static func autoFormat(named name: String) -> ImageFormat? {
        guard let format = try? ProcessingOptions.format(named: Substring(name)),
              [ImageFormat.webp, .avif, .jpeg, .heic, .png, .jxl].contains(format) else { return nil }
        return format
    }

    /// The formats any URL is answered in when `Accept` lists them, the format it names
    /// overridden (imgproxy's `IMGPROXY_ENFORCE_*`), in the same order.
    public var enforcedFormats: [ImageFormat] {
        [(ImageFormat.jxl, enforceJxl), (.avif, enforceAvif), (.webp, enforceWebp)].filter(\.1).map(\.0)
    }
}
