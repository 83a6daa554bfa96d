import WebImage

extension ServerConfiguration {
    /// Which formats a client's `Accept` chooses, and in what order (format negotiation).
    public struct FormatSettings: Sendable, Equatable {
        /// Whether a URL without a format is answered in WebP when `Accept` lists it.
        public var autoWebp = false
        /// Whether a URL without a format is answered in AVIF when `Accept` lists it (in the
        /// order ``acceptedFormats(for:)`` gives).
        public var autoAvif = false
        /// Whether a URL without a format is answered in JPEG XL when `Accept` lists it (before AVIF).
        public var autoJxl = false
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
        /// Whether any URL, one naming a format too, is answered in WebP when `Accept` lists it.
        public var enforceWebp = false
        /// Whether any URL, one naming a format too, is answered in AVIF when `Accept` lists it (in the
        /// order ``acceptedFormats(for:)`` gives).
        public var enforceAvif = false
        /// Whether any URL, one naming a format too, is answered in JPEG XL when `Accept` lists it.
        public var enforceJxl = false
        /// The formats URLs without one are answered in, the first `Accept` takes, in this order
        /// (thumbor's `AUTO_IMAGE_FORMAT_PREFERENCE`); when given, the `auto` flags are not read.
        public var autoImageFormatPreference: [ImageFormat] = []

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

        /// The defaults.
        public init() {}
    }
}
