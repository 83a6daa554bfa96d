import Foundation
import WebImage
import WebImageCodecs

extension ServerConfiguration {
    /// The settings of output, the watermark and fallback image, caches, object storage and logs,
    /// in the order they are listed.
    static let answersTable: [ServerSetting] = [
        // Output
        integer("quality", "IMGPROXY_QUALITY", "Q", "Encoder quality when a URL gives none", 1...100, \.output.quality),
        integer("ttl", "IMGPROXY_TTL", "SECONDS", "Cache-Control max-age of images", 0...Int(Int32.max), \.answers.ttl,
                default: "31536000, one year"),
        switchable("use-etag", "IMGPROXY_USE_ETAG",
                   "Answer with an ETag naming the result's bytes; honour If-None-Match and send it on to origins", \.answers.useETag),
        switchable("use-last-modified", "IMGPROXY_USE_LAST_MODIFIED",
                   "Answer with a Last-Modified, the origin's when it sent one; honour If-Modified-Since and send it on to origins",
                   \.answers.useLastModified),
        setting("last-modified-buster", "IMGPROXY_LAST_MODIFIED_BUSTER", "DATE",
                "An RFC 3339 time (2026-01-01T00:00:00Z) no Last-Modified is answered as earlier than: client copies from before it are stale",
                default: "none") { text, configuration throws(SettingValueError) in
            configuration.answers.lastModifiedBuster = try SettingText.date(text)
        },
        setting("etag-buster", "IMGPROXY_ETAG_BUSTER", "WORD",
                "A word every ETag carries (\"WORD/…\"): change it to make every client copy stale",
                default: "none") { text, configuration throws(SettingValueError) in
            guard text.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) && $0 != "\"" && $0 != "," }) else {
                throw SettingValueError(reason: "is not printable ASCII without spaces, quotes or commas")
            }
            configuration.answers.etagBuster = text
        },
        choice("cache-tags-format", "IMGPROXY_CACHE_TAGS_FORMAT", "FORMAT",
               "The headers an imgproxy URL's cache_tags are answered in (all: Cache-Tag for Cloudflare and X-Amz-Meta-Cache-Tag for CloudFront)",
               \.answers.cacheTagsFormat),
        boolean("set-canonical-header", "IMGPROXY_SET_CANONICAL_HEADER",
                "Answer images of http and https sources with Link: <SOURCE>; rel=\"canonical\"", \.answers.setCanonicalHeader),
        boolean("enable-debug-headers", "IMGPROXY_ENABLE_DEBUG_HEADERS",
                "Answer results made by this process with X-Origin-Content-Length, X-Origin-Width, X-Origin-Height, X-Result-Width and X-Result-Height (results read back from the disk, Redis or S3 tiers carry none)",
                \.answers.enableDebugHeaders),
        boolean("cache-control-passthrough", "IMGPROXY_CACHE_CONTROL_PASSTHROUGH",
                "Answer with the origin's Cache-Control, or max-age until its Expires, in place of --ttl", \.answers.cacheControlPassthrough),
        boolean("auto-webp", "IMGPROXY_AUTO_WEBP", "Answer URLs without a format in WebP when Accept lists image/webp", \.formats.autoWebp),
        boolean("auto-avif", "IMGPROXY_AUTO_AVIF",
                "Answer URLs without a format in AVIF when Accept lists image/avif, before WebP for imgproxy URLs, after it for thumbor URLs", \.formats.autoAvif),
        setting("skip-processing-formats", "IMGPROXY_SKIP_PROCESSING_FORMATS", "FORMAT",
                "Sources of this format are answered as they are unless a URL asks another format; repeat for more",
                default: "none", repeated: ",") { text, configuration throws(SettingValueError) in
            var formats: [ImageFormat] = []
            for name in SettingText.list(text) {
                guard let format = try? ProcessingOptions.anyFormat(named: Substring(name)) else {
                    throw SettingValueError(reason: "names \"\(name)\", which is no image format")
                }
                formats.append(format)
            }
            configuration.output.skipProcessingFormats = formats
        },
        switchable("jpeg-progressive", "IMGPROXY_JPEG_PROGRESSIVE",
                   "Write JPEG results of imgproxy URLs in progressive scans, which browsers show coarse first", \.output.jpegProgressive),
        boolean("png-interlaced", "IMGPROXY_PNG_INTERLACED",
                "Write PNG results of imgproxy URLs Adam7-interlaced, which browsers show coarse first", \.output.pngInterlaced),
        boolean("png-quantize", "IMGPROXY_PNG_QUANTIZE",
                "Write still PNG results of imgproxy URLs as palette PNGs, quantized by libimagequant with dithering as libvips does",
                \.output.pngQuantize),
        integer("png-quantization-colors", "IMGPROXY_PNG_QUANTIZATION_COLORS", "N",
                "The most colours of a --png-quantize palette (imgproxy's libvips rounds it up to 2, 4, 16 or 256)", 2...256,
                \.output.pngQuantizationColors),
        switchable("thumbor-progressive-jpeg", "THUMBOR_PROGRESSIVE_JPEG",
                   "Write JPEG results of thumbor URLs in progressive scans, as thumbor's PROGRESSIVE_JPEG", \.output.thumborProgressiveJPEG),
        switchable("thumbor-respect-orientation", "THUMBOR_RESPECT_ORIENTATION",
                   "Turn the images of thumbor URLs upright by their EXIF orientation, as thumbor's RESPECT_ORIENTATION (off in thumbor)",
                   \.output.thumborRespectOrientation),
        switchable("auto-rotate", "IMGPROXY_AUTO_ROTATE",
                   "Turn the images of imgproxy URLs upright by their EXIF orientation unless the URL's ar says otherwise", \.output.autoRotate),
        switchable("strip-color-profile", "IMGPROXY_STRIP_COLOR_PROFILE",
                   "Convert results of imgproxy URLs to sRGB and write no ICC profile unless the URL's scp says otherwise", \.output.stripColorProfile),
        formatQualities("format-quality", "IMGPROXY_FORMAT_QUALITY",
                        "Encoder quality of a format when a URL gives none, over --quality (the default of an imgproxy URL's fq; thumbor's WEBP_QUALITY, AVIF_QUALITY, HEIF_QUALITY)",
                        default: "none: --quality for every format", \.output.formatQuality),
        switchable("keep-copyright", "IMGPROXY_KEEP_COPYRIGHT",
                   "Write a source's EXIF Artist, Copyright and DateTime into JPEG, PNG, WebP, AVIF and HEIC results of imgproxy URLs (kcr overrides)",
                   \.output.keepCopyright),
        switchable("enforce-thumbnail", "IMGPROXY_ENFORCE_THUMBNAIL",
                   "Process a HEIC or AVIF source's own embedded thumbnail (the largest) instead of its main image, for imgproxy URLs (eth overrides)",
                   \.output.enforceThumbnail),
        boolean("use-linear-colorspace", "IMGPROXY_USE_LINEAR_COLORSPACE",
                "Resize results of imgproxy URLs in linear light, so fine patterns keep their brightness (slower: sources are decoded at full size, where imgproxy's shrink on load still mixes sRGB values)",
                \.output.useLinearColorspace),
        boolean("disable-shrink-on-load", "IMGPROXY_DISABLE_SHRINK_ON_LOAD",
                "Decode sources of imgproxy URLs at full size, never reduced on load (JPEG's DCT scaling, WebP's scaled decode): slower and more memory, every source pixel resampled",
                \.output.disableShrinkOnLoad),
        switchable("strip-metadata", "IMGPROXY_STRIP_METADATA",
                   "Drop a source's EXIF block from results of imgproxy URLs (sm overrides); kept, it is written into JPEG, PNG, WebP, AVIF and HEIC results with the orientation 1, the result's size and no thumbnail",
                   \.output.stripMetadata),
        boolean("thumbor-preserve-exif-info", "THUMBOR_PRESERVE_EXIF_INFO",
                "Keep a source's EXIF block in results of thumbor URLs, as --no-strip-metadata keeps it (the strip_exif filter drops it)",
                \.output.thumborPreserveExifInfo),
        boolean("thumbor-preserve-exif-copyright-info", "THUMBOR_PRESERVE_EXIF_COPYRIGHT_INFO",
                "Write a source's EXIF Artist, Copyright and DateTime into JPEG, PNG, WebP, AVIF and HEIC results of thumbor URLs", \.output.thumborPreserveExifCopyrightInfo),
        decimal("svg-dpi", "THUMBOR_SVG_DPI", "DPI",
                "The pixels an inch of an SVG source's absolute units (in, cm, mm, pt) counts for: CSS's 96, or thumbor's SVG_DPI",
                1...9600, \.output.svgDPI),
        boolean("jpeg-no-subsample", "IMGPROXY_JPEG_NO_SUBSAMPLE",
                "Keep the chroma of JPEG results of imgproxy URLs at full resolution (4:4:4) rather than halved (4:2:0): sharper colour edges, larger files",
                \.output.encoding.jpegNoSubsample),
        choice("webp-compression", "IMGPROXY_WEBP_COMPRESSION", "METHOD",
               "How WebP results of imgproxy URLs are compressed (near_lossless: lossless after libwebp's preprocessing at the quality)",
               \.output.encoding.webpCompression),
        boolean("webp-smart-subsample", "IMGPROXY_WEBP_SMART_SUBSAMPLE",
                "Convert lossy WebP results of imgproxy URLs to YUV with libwebp's sharp method: crisper colour edges, slower",
                \.output.encoding.webpSmartSubsample),
        choice("avif-subsample", "IMGPROXY_AVIF_SUBSAMPLE", "WHEN",
               "When AVIF results of imgproxy URLs halve their chroma (auto: below quality 90)", \.output.encoding.avifSubsample),
        integer("webp-effort", "IMGPROXY_WEBP_EFFORT", "N", "libwebp's effort for WebP results: higher is smaller and slower",
                1...6, \.output.webpEffort),
        setting("webp-preset", "IMGPROXY_WEBP_PRESET", "PRESET",
                "The libwebp preset lossy WebP results start from: \(WebPEncodingPreset.allCases.map(\.rawValue).joined(separator: ", "))",
                default: defaults.output.webpPreset.rawValue) { text, configuration throws(SettingValueError) in
            guard let preset = WebPEncodingPreset(rawValue: text.lowercased()) else {
                throw SettingValueError(reason: "is \"\(text)\", which is no libwebp preset")
            }
            configuration.output.webpPreset = preset
        },
        integer("avif-speed", "IMGPROXY_AVIF_SPEED", "N", "libavif's speed for AVIF results: lower is smaller and slower",
                0...9, \.output.avifSpeed),
        integer("jxl-effort", "IMGPROXY_JXL_EFFORT", "N", "libjxl's effort for JPEG XL results: higher is smaller and slower",
                1...9, \.output.jxlEffort),
        setting("color-profiles-dir", "IMGPROXY_COLOR_PROFILES_DIR", "FOLDER",
                "The folder an imgproxy URL's color_profile names RGB .icc and .icm profiles in",
                default: defaults.output.colorProfilesDir) { text, configuration throws(SettingValueError) in
            configuration.output.colorProfilesDir = text
        },
        decimal("best-format-complexity-threshold", "IMGPROXY_BEST_FORMAT_COMPLEXITY_THRESHOLD", "STEP",
                "Images whose mean luma step between neighbours (0…255) is under this are written losslessly by the best format where the format can be",
                0...255, \.output.bestFormat.complexityThreshold),
        decimal("best-format-max-resolution", "IMGPROXY_BEST_FORMAT_MAX_RESOLUTION", "MEGAPIXELS",
                "Results over this many megapixels are written in the likeliest best format rather than in every candidate; 0 for no bound",
                0...100_000, \.output.bestFormat.maxResolution),
        boolean("best-format-by-default", "IMGPROXY_BEST_FORMAT_BY_DEFAULT", "Write imgproxy URLs naming no format in the best format",
                \.output.bestFormat.byDefault),
        boolean("best-format-allow-skips", "IMGPROXY_BEST_FORMAT_ALLOW_SKIPS",
                "Let skip_processing and SVG sources answered as SVG apply to the best format too", \.output.bestFormat.allowSkips),
        choice("autoquality-method", "IMGPROXY_AUTOQUALITY_METHOD", "METHOD",
               "How imgproxy URLs naming no quality get one, by encoding several times (the default of their aq)", \.output.autoquality.method),
        decimal("autoquality-target", "IMGPROXY_AUTOQUALITY_TARGET", "VALUE",
                "The file size in bytes (size) or the DSSIM (dssim, ml) autoquality aims at", 0...Double(Int32.max), \.output.autoquality.target),
        integer("autoquality-min", "IMGPROXY_AUTOQUALITY_MIN", "Q", "The lowest quality autoquality chooses", 1...100,
                \.output.autoquality.minQuality),
        formatQualities("autoquality-format-min", "IMGPROXY_AUTOQUALITY_FORMAT_MIN", "The lowest quality autoquality chooses for a format, over --autoquality-min",
                        default: "avif=60", \.output.autoquality.formatMin),
        integer("autoquality-max", "IMGPROXY_AUTOQUALITY_MAX", "Q", "The highest quality autoquality chooses", 1...100,
                \.output.autoquality.maxQuality),
        formatQualities("autoquality-format-max", "IMGPROXY_AUTOQUALITY_FORMAT_MAX", "The highest quality autoquality chooses for a format, over --autoquality-max",
                        default: "avif=65", \.output.autoquality.formatMax),
        decimal("autoquality-allowed-error", "IMGPROXY_AUTOQUALITY_ALLOWED_ERROR", "DSSIM",
                "How far from the target a DSSIM may be for its quality to be taken at once", 0...1, \.output.autoquality.allowedError),
        decimal("autoquality-max-resolution", "IMGPROXY_AUTOQUALITY_MAX_RESOLUTION", "MEGAPIXELS",
                "Results over this many megapixels keep their quality rather than search one; 0 for no bound", 0...100_000,
                \.output.autoquality.maxResolution),
        choice("unsharp-masking-mode", "IMGPROXY_UNSHARP_MASKING_MODE", "MODE",
               "When imgproxy URLs' results get a 3 × 3 unsharp mask (the default of their ush): auto when made smaller without sharpen",
               \.output.unsharpMasking.mode),
        decimal("unsharp-masking-weight", "IMGPROXY_UNSHARP_MASKING_WEIGHT", "WEIGHT",
                "How much a pixel's neighbours take away from it in the unsharp mask: the greater, the sharper", 0.000001...1_000_000,
                \.output.unsharpMasking.weight),
        decimal("unsharp-masking-divider", "IMGPROXY_UNSHARP_MASKING_DIVIDER", "DIVIDER",
                "The unsharp mask's divider: the smaller, the sharper", 0.000001...1_000_000, \.output.unsharpMasking.divider),
        setting("preferred-format", "IMGPROXY_PREFERRED_FORMATS", "FORMAT",
                "A format results of imgproxy URLs naming none are written in: the source's if listed, else the first that suits; repeat for more",
                default: "none: the source's format", repeated: ",") { text, configuration throws(SettingValueError) in
            var formats: [ImageFormat] = []
            for name in SettingText.list(text) {
                guard let format = try? ProcessingOptions.anyFormat(named: Substring(name)), format != .svg else {
                    throw SettingValueError(reason: "names \"\(name)\", which is no image format results are written in")
                }
                formats.append(format)
            }
            configuration.output.preferredFormats = formats
        },
        boolean("always-rasterize-svg", "IMGPROXY_ALWAYS_RASTERIZE_SVG",
                "Draw SVG sources when a URL names no format (in PNG unless Accept chooses), rather than answer them as sanitized SVG",
                \.output.alwaysRasterizeSVG),
        boolean("enforce-webp", "IMGPROXY_ENFORCE_WEBP",
                "Answer every URL in WebP when Accept lists image/webp, even one naming another format", \.formats.enforceWebp),
        boolean("enforce-avif", "IMGPROXY_ENFORCE_AVIF",
                "Answer every URL in AVIF when Accept lists image/avif, even one naming another format, before WebP", \.formats.enforceAvif),
        boolean("enable-client-hints", "IMGPROXY_ENABLE_CLIENT_HINTS",
                "Start imgproxy URLs from the browser's Sec-CH-DPR (DPR) and Sec-CH-Width (Width) hints; the URL's own dpr and width win",
                \.urls.enableClientHints),
        boolean("auto-jxl", "IMGPROXY_AUTO_JXL",
                "Answer URLs without a format in JPEG XL when Accept lists image/jxl, before AVIF", \.formats.autoJxl),
        boolean("enforce-jxl", "IMGPROXY_ENFORCE_JXL",
                "Answer every URL in JPEG XL when Accept lists image/jxl, even one naming another format, before AVIF", \.formats.enforceJxl),
        boolean("auto-heif", "THUMBOR_AUTO_HEIF",
                "Answer URLs without a format in HEIC when Accept lists image/heif or image/heic (or image/*), after WebP and AVIF", \.formats.autoHeif),
        boolean("auto-jpg", "THUMBOR_AUTO_JPG",
                "Answer URLs without a format in JPEG when Accept lists image/jpeg, image/jpg, image/* or */*, after HEIC for imgproxy URLs, before it for thumbor URLs", \.formats.autoJpg),
        boolean("auto-png", "THUMBOR_AUTO_PNG", "Answer URLs without a format in PNG when Accept lists image/png or image/*, last",
                \.formats.autoPng),
        boolean("auto-png-to-jpg", "THUMBOR_AUTO_PNG_TO_JPG",
                "Answer a thumbor URL's opaque still PNG in JPEG when no format is named or chosen from Accept", \.formats.autoPngToJpg),
        setting("auto-image-format-preference", "THUMBOR_AUTO_IMAGE_FORMAT_PREFERENCE", "FORMAT,…",
                "The formats URLs without one are answered in, first the client's Accept takes, in this order; replaces the --auto-* flags",
                default: "none: the --auto-* flags") { text, configuration throws(SettingValueError) in
            var formats: [ImageFormat] = []
            for name in SettingText.list(text) {
                guard let format = ServerConfiguration.FormatSettings.autoFormat(named: name) else {
                    throw SettingValueError(reason: "names \"\(name)\", which is not webp, avif, jpg, heif, png or jxl")
                }
                if !formats.contains(format) { formats.append(format) }
            }
            configuration.formats.autoImageFormatPreference = formats
        },
        // Watermark and fallback
        imageSource("watermark-path", "The watermark image the watermark option lays over results, from a file", \.overlays.watermark,
                    default: "none: watermark does nothing"),
        imageSource("watermark-url", "The watermark image, fetched once at start like a source", \.overlays.watermark),
        imageSource("watermark-data", "The watermark image, base64-encoded", \.overlays.watermark),
        decimal("watermark-opacity", "IMGPROXY_WATERMARK_OPACITY", "OPACITY",
                "The watermark's base opacity, 0…1, multiplied by each URL's", 0...1, \.overlays.watermarkOpacity),
        imageSource("fallback-image-path",
                    "An image processed with the URL's options when its source is missing, fails, times out or is no image, from a file",
                    \.overlays.fallbackImage, default: "none: the error is answered"),
        imageSource("fallback-image-url", "The fallback image, fetched once at start like a source", \.overlays.fallbackImage),
        imageSource("fallback-image-data", "The fallback image, base64-encoded", \.overlays.fallbackImage),
        setting("fallback-image-http-code", "IMGPROXY_FALLBACK_IMAGE_HTTP_CODE", "STATUS",
                "The status a fallback image is answered with, 200…599 but 204, 205 and 304 (which carry no body)",
                default: "200") { text, configuration throws(SettingValueError) in
            let code = try SettingText.integer(text, in: 200...599)
            guard ![204, 205, 304].contains(code) else { throw SettingValueError(reason: "is a status that carries no body") }
            configuration.overlays.fallbackImageHTTPCode = code
        },
        integer("fallback-image-ttl", "IMGPROXY_FALLBACK_IMAGE_TTL", "SECONDS", "Cache-Control max-age of a fallback image; 0 takes --ttl",
                0...Int(Int32.max), \.overlays.fallbackImageTTL),
        // Caches
        setting("cache-dir", "WEBIMAGE_CACHE_DIR", "FOLDER",
                "A folder for the source and result disk caches (its sources/ and results/ folders)",
                default: "sources in WebImage's default cache folder, results in memory only") { text, configuration throws(SettingValueError) in
            configuration.caches.cacheDir = text
        },
        integer("cache-size", "WEBIMAGE_CACHE_SIZE", "BYTES",
                "The most the disk caches hold, sources and results half each, the least recently used trimmed first",
                1 << 20...Int.max, \.caches.cacheSize, default: "1 GiB", rangeText: "1 MiB or more"),
        setting("redis", "WEBIMAGE_REDIS_URL", "redis://HOST[:PORT][/DB]",
                "A Redis shared by instances, as the cache tier below the local disk",
                default: "none: local caches only", shown: .withoutURLCredentials) { text, configuration throws(SettingValueError) in
            configuration.caches.redisURL = text
        },
        integer("redis-ttl", "WEBIMAGE_REDIS_TTL", "SECONDS", "Seconds an entry lives in Redis", 1...Int(Int32.max), \.caches.redisTTL,
                default: "604800, 7 days"),
        // Object storage
        boolean("use-s3", "IMGPROXY_USE_S3", "Load s3://BUCKET/KEY sources from S3-compatible object storage", \.objectStorage.useS3),
        setting("s3-endpoint", "IMGPROXY_S3_ENDPOINT", "URL",
                "The object storage endpoint, for MinIO, Ceph RGW, R2 or Google Cloud Storage's interoperability",
                default: "AWS's, s3.REGION.amazonaws.com", shown: .withoutURLCredentials) { text, configuration throws(SettingValueError) in
            configuration.objectStorage.s3Endpoint = text
        },
        setting("s3-region", "IMGPROXY_S3_REGION", "REGION", "The region object storage requests are signed for",
                default: defaults.objectStorage.s3Region) { text, configuration throws(SettingValueError) in configuration.objectStorage.s3Region = text },
        setting("s3-path-style", "IMGPROXY_S3_ENDPOINT_USE_PATH_STYLE", "true|false",
                "Name the bucket in the path (ENDPOINT/BUCKET/KEY); false names it in the host (BUCKET.ENDPOINT/KEY)",
                default: String(defaults.objectStorage.s3PathStyle)) { text, configuration throws(SettingValueError) in
            configuration.objectStorage.s3PathStyle = try SettingText.boolean(text)
        },
        secret("s3-access-key-id", "AWS_ACCESS_KEY_ID", "ID", "The access key ID object storage requests are signed with",
               \.objectStorage.s3AccessKeyID),
        secret("s3-secret-access-key", "AWS_SECRET_ACCESS_KEY", "SECRET",
               "Its secret access key; prefer the variable, since a flag shows in the process list", \.objectStorage.s3SecretAccessKey),
        secret("s3-session-token", "AWS_SESSION_TOKEN", "TOKEN", "The session token of temporary credentials", \.objectStorage.s3SessionToken),
        setting("s3-assume-role-arn", "IMGPROXY_S3_ASSUME_ROLE_ARN", "ARN",
                "A role object storage requests are signed as, assumed through STS with the credentials found (and again before they expire)",
                default: "none") { text, configuration throws(SettingValueError) in
            guard text.hasPrefix("arn:") else { throw SettingValueError(reason: "is not an ARN (arn:aws:iam::ACCOUNT:role/NAME)") }
            configuration.objectStorage.s3AssumeRoleARN = text
        },
        setting("s3-assume-role-external-id", "IMGPROXY_S3_ASSUME_ROLE_EXTERNAL_ID", "ID",
                "The external ID the assumed role's trust policy asks for", default: "none") { text, configuration throws(SettingValueError) in
            configuration.objectStorage.s3AssumeRoleExternalID = text
        },
        setting("s3-allowed-bucket", "IMGPROXY_S3_ALLOWED_BUCKETS", "BUCKET",
                "A bucket s3:// sources may name, any other refused (404); repeat for more", default: "none: any",
                repeated: ",") { text, configuration throws(SettingValueError) in
            configuration.objectStorage.s3AllowedBuckets = SettingText.list(text)
        },
        setting("s3-denied-bucket", "IMGPROXY_S3_DENIED_BUCKETS", "BUCKET",
                "A bucket s3:// sources may not name (404); repeat for more", default: "none",
                repeated: ",") { text, configuration throws(SettingValueError) in
            configuration.objectStorage.s3DeniedBuckets = SettingText.list(text)
        },
        setting("result-storage", "WEBIMAGE_RESULT_STORAGE", "s3://BUCKET[/PREFIX]",
                "Object storage shared by instances for results, the tier below Redis (or the local disk), written in the background",
                default: "none") { text, configuration throws(SettingValueError) in configuration.objectStorage.resultStorage = text },
        // Logs
        decimal("log-interval", "WEBIMAGE_LOG_INTERVAL", "SECONDS",
                "Seconds a log line may wait in memory to be written with others; 0 writes each at once", 0...60, \.logs.logInterval),
        setting("log-level", "IMGPROXY_LOG_LEVEL", "debug|info|warn|error",
                "The least level a line needs to be written; info writes one line per image request, warn and error none",
                default: "info") { text, configuration throws(SettingValueError) in
            configuration.logs.logLevel = try SettingText.logLevel(text)
        },
        setting("log-format", "IMGPROXY_LOG_FORMAT", LogFormat.allCases.map(\.rawValue).joined(separator: "|"),
                "How lines are written: pretty for a terminal, structured (key=value), json, or gcp (JSON with Cloud Logging's keys)",
                default: "pretty on a terminal, else structured") { text, configuration throws(SettingValueError) in
            guard let format = LogFormat(rawValue: text.lowercased()) else {
                throw SettingValueError(reason: "is not \(LogFormat.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            configuration.logs.logFormat = format
        },
        boolean("syslog", "IMGPROXY_SYSLOG_ENABLE",
                "Also send each line at or above --syslog-level to syslog, as Go's log/syslog writes it (imgproxy's syslog hook)", \.logs.syslogEnabled),
        setting("syslog-network", "IMGPROXY_SYSLOG_NETWORK", SyslogNetwork.allCases.map(\.rawValue).joined(separator: "|"),
                "How the syslog daemon is reached; unset, its local socket (/dev/log, /var/run/syslog or /var/run/log)",
                default: "none: the local socket") { text, configuration throws(SettingValueError) in
            if text.isEmpty {
                configuration.logs.syslogNetwork = nil
            } else if let network = SyslogNetwork(rawValue: text.lowercased()) {
                configuration.logs.syslogNetwork = network
            } else {
                throw SettingValueError(reason: "is not \(SyslogNetwork.allCases.map(\.rawValue).joined(separator: ", "))")
            }
        },
        setting("syslog-address", "IMGPROXY_SYSLOG_ADDRESS", "HOST:PORT|PATH",
                "Where the syslog daemon listens on --syslog-network: an address, or a Unix socket's path", default: "none") { text, configuration throws(SettingValueError) in
            configuration.logs.syslogAddress = text
        },
        setting("syslog-tag", "IMGPROXY_SYSLOG_TAG", "TAG", "The tag of every syslog line, before the process ID (imgproxy's default: imgproxy)",
                default: defaults.logs.syslogTag) { text, configuration throws(SettingValueError) in
            guard !text.isEmpty, text.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) else {
                throw SettingValueError(reason: "is not a tag in printable ASCII without spaces")
            }
            configuration.logs.syslogTag = text
        },
        setting("syslog-level", "IMGPROXY_SYSLOG_LEVEL", "debug|info|warn|error|crit",
                "The least level a line needs to be sent to syslog, whatever --log-level writes", default: "info") { text, configuration throws(SettingValueError) in
            configuration.logs.syslogLevel = text.lowercased() == "crit" ? .critical : try SettingText.logLevel(text)
        },
        // Metrics
        setting("prometheus-bind", "IMGPROXY_PROMETHEUS_BIND", "HOST:PORT",
                "Answer metrics on a listener of their own (:PORT for every interface), and no longer on the main port's /metrics",
                default: "none: /metrics on the main port") { text, configuration throws(SettingValueError) in
            let (host, port) = try SettingText.address(text)
            configuration.metrics.prometheusBind = ListenAddress(host: host, port: port)
        },
        setting("prometheus-namespace", "IMGPROXY_PROMETHEUS_NAMESPACE", "NAME",
                "What every metric name starts with, before an underscore", default: defaults.metrics.namespace) { text, configuration throws(SettingValueError) in
            guard let first = text.unicodeScalars.first, first == "_" || ("a"..."z").contains(first) || ("A"..."Z").contains(first),
                  text.unicodeScalars.allSatisfy({ $0 == "_" || ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) })
            else { throw SettingValueError(reason: "is not a Prometheus name: letters, digits and _, not starting with a digit") }
            configuration.metrics.namespace = text
        },
        // Traces
        boolean("open-telemetry", "IMGPROXY_OPEN_TELEMETRY_ENABLE",
                "Trace image requests with OpenTelemetry, sent over OTLP/HTTP: a span a request, one a stage (cache, download, decode, transform, encode)",
                \.telemetry.enabled),
        setting("otlp-endpoint", "OTEL_EXPORTER_OTLP_ENDPOINT", "URL", "The OpenTelemetry collector's base URL; spans go to its /v1/traces",
                default: defaults.telemetry.endpoint) { text, configuration throws(SettingValueError) in
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host?.isEmpty == false else {
                throw SettingValueError(reason: "is not an http:// or https:// URL")
            }
            configuration.telemetry.endpoint = text
        },
        setting("otlp-protocol", "OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf|http/json", "How spans are encoded for the collector",
                default: defaults.telemetry.otlpProtocol.rawValue) { text, configuration throws(SettingValueError) in
            switch text.lowercased() {
            case "grpc":
                throw SettingValueError(reason: "is grpc, imgproxy's default, whose exporter is not built here: use http/protobuf (a collector listens for it on 4318)")
            case "http", "https": configuration.telemetry.otlpProtocol = .httpProtobuf
            default:
                guard let value = OTLPProtocol(rawValue: text.lowercased()) else { throw SettingValueError(reason: "is not http/protobuf or http/json") }
                configuration.telemetry.otlpProtocol = value
            }
        },
        setting("otlp-timeout", "OTEL_EXPORTER_OTLP_TIMEOUT", "MILLISECONDS", "How long an export to the collector may take",
                default: "10000") { text, configuration throws(SettingValueError) in
            configuration.telemetry.exportTimeout = try SettingText.decimal(text, in: 1...600_000) / 1000
        },
        setting("otel-service-name", "OTEL_SERVICE_NAME", "NAME", "The service.name of every span",
                default: defaults.telemetry.serviceName) { text, configuration throws(SettingValueError) in
            guard !text.isEmpty else { throw SettingValueError(reason: "is empty") }
            configuration.telemetry.serviceName = text
        },
        boolean("open-telemetry-propagate-external", "IMGPROXY_OPEN_TELEMETRY_PROPAGATE_EXTERNAL",
                "Continue the trace a client's traceparent names, rather than start one for each request", \.telemetry.propagateExternal),
        boolean("open-telemetry-enable-metrics", "IMGPROXY_OPEN_TELEMETRY_ENABLE_METRICS",
                "With --open-telemetry, export the server's metrics over OTLP too, to the collector's /v1/metrics (Prometheus's /metrics keeps them)",
                \.telemetry.enableMetrics),
        setting("otel-metric-export-interval", "OTEL_METRIC_EXPORT_INTERVAL", "MILLISECONDS", "Time between two metric exports to the collector",
                default: "60000") { text, configuration throws(SettingValueError) in
            configuration.telemetry.metricExportInterval = try SettingText.decimal(text, in: 1...86_400_000) / 1000
        },
    ]
}
