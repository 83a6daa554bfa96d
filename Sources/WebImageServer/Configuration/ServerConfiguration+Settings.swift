import Foundation
import WebImage

extension ServerConfiguration {
    /// Every setting, in the order `serve --help` and the Configuration article (WebImageServer.docc) list them.
    public static let settings: [ServerSetting] = [
        // Listening
        setting("bind", "IMGPROXY_BIND", "HOST:PORT", "The address to listen on; port 0 picks a free one",
                default: "127.0.0.1:8080") { text, configuration throws(SettingValueError) in
            (configuration.listening.host, configuration.listening.port) = try SettingText.address(text)
        },
        decimal("timeout", "IMGPROXY_TIMEOUT", "SECONDS",
                "Seconds an image request may take; past it the answer is 504 and its work is cancelled", 0.001...86_400, \.listening.timeout),
        decimal("read-request-timeout", "IMGPROXY_READ_REQUEST_TIMEOUT", "SECONDS",
                "Seconds a connection has to send a request head, from its opening or its previous answer; idle connections close after it too",
                0.001...86_400, \.listening.readRequestTimeout),
        integer("max-clients", "IMGPROXY_MAX_CLIENTS", "N",
                "Connections open at once; one past it is closed as soon as it is accepted", 1...1_000_000, \.listening.maxClients),
        setting("allow-origin", "IMGPROXY_ALLOW_ORIGIN", "ORIGIN",
                "The origin answers allow to read them (Access-Control-Allow-Origin, * for any), with Access-Control-Allow-Methods: GET, OPTIONS",
                default: "none: no CORS fields") { text, configuration throws(SettingValueError) in
            guard !text.isEmpty, text.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) else {
                throw SettingValueError(reason: "is not an origin in printable ASCII")
            }
            configuration.listening.allowOrigin = text
        },
        // URLs and signing
        setting("path-prefix", "IMGPROXY_PATH_PREFIX", "/PREFIX",
                "What every path starts with, /health and /metrics too; any other path is answered 404",
                default: "none") { text, configuration throws(SettingValueError) in
            guard text.isEmpty || (text.hasPrefix("/") && !text.hasSuffix("/") && !text.contains("?")) else {
                throw SettingValueError(reason: "is not /PREFIX (a leading slash, none at the end)")
            }
            configuration.listening.pathPrefix = text
        },
        setting("url-format", "WEBIMAGE_URL_FORMAT", "imgproxy|thumbor|both",
                "The URL forms answered; both tells them apart by the first segment",
                default: defaults.urls.urlFormat.rawValue) { text, configuration throws(SettingValueError) in
            guard let format = ServedURLFormat(rawValue: text) else { throw SettingValueError(reason: "is not imgproxy, thumbor or both") }
            configuration.urls.urlFormat = format
        },
        list("key", "IMGPROXY_KEY", "HEX", "A signing key in hexadecimal; repeat with --salt for key rotation",
             default: "none: URLs are not signed", \.urls.keys),
        list("salt", "IMGPROXY_SALT", "HEX", "A signing salt in hexadecimal, one per --key", default: "none", \.urls.salts),
        integer("signature-size", "IMGPROXY_SIGNATURE_SIZE", "N", "Bytes of the digest a signature keeps", 1...32, \.urls.signatureSize),
        list("trusted-signature", "IMGPROXY_TRUSTED_SIGNATURES", "SIGNATURE",
             "A signature accepted for any path while signing is on; repeat for more", default: "none", \.urls.trustedSignatures),
        setting("thumbor-key", "THUMBOR_SECURITY_KEY", "KEY", "thumbor's security key: thumbor URLs must carry its HMAC-SHA1 signature",
                default: "none") { text, configuration throws(SettingValueError) in configuration.urls.thumborKey = text },
        boolean("thumbor-allow-unsafe-url", "THUMBOR_ALLOW_UNSAFE_URL",
                "With --thumbor-key, still answer unsigned /unsafe/ thumbor URLs (thumbor's default; off here)", \.urls.thumborAllowUnsafeURL),
        list("preset", "IMGPROXY_PRESETS", "NAME=OPTION/…", "A preset; repeat for more", default: "none", \.urls.presets),
        boolean("only-presets", "IMGPROXY_ONLY_PRESETS",
                "imgproxy URLs name presets only: /SIGNATURE/PRESET:PRESET/SOURCE", \.urls.onlyPresets),
        setting("allowed-processing-options", "IMGPROXY_ALLOWED_PROCESSING_OPTIONS", "NAME",
                "An option imgproxy URLs may use (any of its names; presets' own options are not checked); repeat for more",
                default: "none: all", repeated: ",") { text, configuration throws(SettingValueError) in
            let names = SettingText.list(text)
            if let unknown = names.first(where: { ProcessingOptionName(spelling: Substring($0)) == nil }) {
                throw SettingValueError(reason: "names \"\(unknown)\", which is no imgproxy option")
            }
            configuration.urls.allowedProcessingOptions = names
        },
        setting("arguments-separator", "IMGPROXY_ARGUMENTS_SEPARATOR", "CHARACTER",
                "What separates an imgproxy option's name and arguments", default: ":") { text, configuration throws(SettingValueError) in
            guard text.count == 1, let separator = text.first, separator != "/", separator != "@", separator != "." else {
                throw SettingValueError(reason: "is not one character other than / @ .")
            }
            configuration.urls.argumentsSeparator = separator
        },
        setting("base-url", "IMGPROXY_BASE_URL", "URL", "Put before every imgproxy source URL that does not start with it",
                default: "none") { text, configuration throws(SettingValueError) in configuration.urls.baseURL = text },
        setting("url-replacement", "IMGPROXY_URL_REPLACEMENTS", "PATTERN=REPLACEMENT",
                "Rewrite imgproxy source URLs starting with PATTERN (* any run but /) to REPLACEMENT (${1} for the first *) before --base-url; repeat for more, ; between them in the variable",
                default: "none", repeated: ";") { text, configuration throws(SettingValueError) in
            let rules = text.split(separator: ";").filter { !$0.isEmpty }
            if let bad = rules.first(where: { URLReplacement(setting: $0) == nil }) {
                throw SettingValueError(reason: "has \"\(bad)\", which is no PATTERN=REPLACEMENT")
            }
            configuration.urls.urlReplacements = rules.map(String.init)
        },
        boolean("base64-url-includes-filename", "IMGPROXY_BASE64_URL_INCLUDES_FILENAME",
                "The last segment of a base64 source URL split over several is a file name, not part of it", \.urls.base64URLIncludesFilename),
        // Sources
        list("allowed-sources", "IMGPROXY_ALLOWED_SOURCES", "PREFIX",
             "A URL prefix sources must start with, * matching any run of characters but /; repeat for more; end a host with /",
             default: "none: any", \.sources.allowedSources),
        boolean("allow-loopback-sources", "IMGPROXY_ALLOW_LOOPBACK_SOURCE_ADDRESSES",
                "Fetch sources that resolve to loopback addresses (127.0.0.0/8, ::1)", \.sources.allowLoopbackSources),
        boolean("allow-private-sources", "IMGPROXY_ALLOW_PRIVATE_SOURCE_ADDRESSES",
                "Fetch sources that resolve to private, link-local, carrier-grade NAT or other special addresses",
                \.sources.allowPrivateSources),
        setting("thumbor-loader", "THUMBOR_LOADER", "http|file",
                "How a thumbor image without a scheme is read: over HTTP, or as a file under --local-root (thumbor's file_loader)",
                default: defaults.sources.thumborLoader.rawValue) { text, configuration throws(SettingValueError) in
            guard let loader = ThumborLoader(setting: text) else { throw SettingValueError(reason: "is not http or file") }
            configuration.sources.thumborLoader = loader
        },
        setting("local-root", "IMGPROXY_LOCAL_FILESYSTEM_ROOT", "FOLDER", "The folder local:///PATH sources are read from",
                default: "the current folder when listening on loopback, else none: refused") { text, configuration throws(SettingValueError) in
            configuration.sources.localRoot = text
        },
        decimal("download-timeout", "IMGPROXY_DOWNLOAD_TIMEOUT", "SECONDS",
                "Seconds a source download may take in all, however steadily its bytes trickle", 0.001...86_400, \.sources.downloadTimeout),
        integer("max-redirects", "IMGPROXY_MAX_REDIRECTS", "N", "Redirects a source download follows, each one's address checked again",
                0...100, \.sources.maxRedirects),
        // Limits
        decimal("max-src-resolution", "IMGPROXY_MAX_SRC_RESOLUTION", "MEGAPIXELS",
                "The most megapixels a source may declare, all frames of an animation together, checked before decoding",
                0.000001...100_000, \.limits.maxSrcResolution),
        integer("max-src-file-size", "IMGPROXY_MAX_SRC_FILE_SIZE", "BYTES", "The largest source download",
                1...Int(Int32.max), \.limits.maxSrcFileSize, default: "64 MiB"),
        integer("max-animation-frames", "IMGPROXY_MAX_ANIMATION_FRAMES", "N",
                "The most frames of an animated source processed; 1 makes animations still, more frames are refused",
                1...100_000, \.limits.maxAnimationFrames),
        decimal("max-animation-frame-resolution", "IMGPROXY_MAX_ANIMATION_FRAME_RESOLUTION", "MEGAPIXELS",
                "The most megapixels one frame of an animated source may declare; 0 counts all frames together instead",
                0...100_000, \.limits.maxAnimationFrameResolution),
        boolean("allow-security-options", "IMGPROXY_ALLOW_SECURITY_OPTIONS",
                "Let imgproxy URLs set their own source limits and max_result_dimension (msr, msfs, maf, mafr, mrd); otherwise those are 403",
                \.limits.allowSecurityOptions),
        decimal("max-result-resolution", "WEBIMAGE_MAX_RESULT_RESOLUTION", "MEGAPIXELS",
                "The most megapixels a result may have, all frames together", 0.000001...100_000, \.limits.maxResultResolution),
        integer("thumbor-max-width", "THUMBOR_MAX_WIDTH", "PIXELS",
                "The widest a thumbor URL may ask for, and wider sources are shrunk first, as thumbor's MAX_WIDTH; 0 for no bound",
                0...1_000_000, \.limits.thumborMaxWidth),
        integer("thumbor-max-height", "THUMBOR_MAX_HEIGHT", "PIXELS",
                "The tallest a thumbor URL may ask for, and taller sources are shrunk first, as thumbor's MAX_HEIGHT; 0 for no bound",
                0...1_000_000, \.limits.thumborMaxHeight),
        integer("concurrency", "IMGPROXY_WORKERS", "N", "Images processed at once", 1...4096, \.limits.concurrency,
                default: "twice the processor count"),
        integer("max-queue", "IMGPROXY_REQUESTS_QUEUE_SIZE", "N", "Requests that may wait for processing; more are answered 429",
                0...1_000_000, \.limits.maxQueue),
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
        switchable("keep-copyright", "IMGPROXY_KEEP_COPYRIGHT",
                   "Write a source's EXIF Artist, Copyright and DateTime into JPEG, PNG, WebP, AVIF and HEIC results of imgproxy URLs (kcr overrides)",
                   \.output.keepCopyright),
        boolean("thumbor-preserve-exif-copyright-info", "THUMBOR_PRESERVE_EXIF_COPYRIGHT_INFO",
                "Write a source's EXIF Artist, Copyright and DateTime into JPEG, PNG, WebP, AVIF and HEIC results of thumbor URLs", \.output.thumborPreserveExifCopyrightInfo),
        decimal("svg-dpi", "THUMBOR_SVG_DPI", "DPI",
                "The pixels an inch of an SVG source's absolute units (in, cm, mm, pt) counts for: CSS's 96, or thumbor's SVG_DPI",
                1...9600, \.output.svgDPI),
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
                default: "none: local caches only") { text, configuration throws(SettingValueError) in configuration.caches.redisURL = text },
        integer("redis-ttl", "WEBIMAGE_REDIS_TTL", "SECONDS", "Seconds an entry lives in Redis", 1...Int(Int32.max), \.caches.redisTTL,
                default: "604800, 7 days"),
        // Object storage
        boolean("use-s3", "IMGPROXY_USE_S3", "Load s3://BUCKET/KEY sources from S3-compatible object storage", \.objectStorage.useS3),
        setting("s3-endpoint", "IMGPROXY_S3_ENDPOINT", "URL",
                "The object storage endpoint, for MinIO, Ceph RGW, R2 or Google Cloud Storage's interoperability",
                default: "AWS's, s3.REGION.amazonaws.com") { text, configuration throws(SettingValueError) in
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
    ]

    /// The defaults the table shows.
    private static let defaults = ServerConfiguration()

    private static func setting(_ flag: String, _ variable: String?, _ valueName: String?, _ summary: String, default defaultText: String,
                                repeated separator: String? = nil,
                                read: @escaping @Sendable (String, inout ServerConfiguration) throws(SettingValueError) -> Void)
        -> ServerSetting {
        ServerSetting(flag: flag, variable: variable, valueName: valueName, summary: summary, defaultText: defaultText,
                      separator: separator, read: read)
    }

    private static func integer(_ flag: String, _ variable: String, _ valueName: String, _ summary: String,
                                _ range: ClosedRange<Int>, _ keyPath: WritableKeyPath<ServerConfiguration, Int> & Sendable,
                                default defaultText: String? = nil, rangeText: String? = nil) -> ServerSetting {
        setting(flag, variable, valueName, "\(summary), \(rangeText ?? "\(range.lowerBound)…\(range.upperBound)")",
                default: defaultText ?? String(defaults[keyPath: keyPath])) { text, configuration throws(SettingValueError) in
            configuration[keyPath: keyPath] = try SettingText.integer(text, in: range)
        }
    }

    /// Where an image the server itself needs comes from, as imgproxy names the setting
    /// (`IMGPROXY_` and the flag in capitals): a file for a flag ending in `-path`, a URL for
    /// `-url`, else the base64-encoded bytes.
    private static func imageSource(_ flag: String, _ summary: String,
                                    _ keyPath: WritableKeyPath<ServerConfiguration, AuxiliaryImageSource?> & Sendable,
                                    default defaultText: String = "none") -> ServerSetting {
        let variable = "IMGPROXY_" + flag.uppercased().replacingOccurrences(of: "-", with: "_")
        let form = flag.split(separator: "-").last ?? ""
        let valueName = form == "path" ? "FILE" : form == "url" ? "URL" : "BASE64"
        return setting(flag, variable, valueName, summary, default: defaultText) { text, configuration throws(SettingValueError) in
            configuration[keyPath: keyPath] = switch form {
            case "path": .path(text)
            case "url": .url(text)
            default: try AuxiliaryImageSource.decodingBase64(text)
            }
        }
    }

    private static func decimal(_ flag: String, _ variable: String, _ valueName: String, _ summary: String,
                                _ range: ClosedRange<Double>, _ keyPath: WritableKeyPath<ServerConfiguration, Double> & Sendable)
        -> ServerSetting {
        setting(flag, variable, valueName, summary,
                default: defaults[keyPath: keyPath].plainText) { text, configuration throws(SettingValueError) in
            configuration[keyPath: keyPath] = try SettingText.decimal(text, in: range)
        }
    }

    private static func boolean(_ flag: String, _ variable: String, _ summary: String,
                                _ keyPath: WritableKeyPath<ServerConfiguration, Bool> & Sendable) -> ServerSetting {
        setting(flag, variable, nil, summary, default: String(defaults[keyPath: keyPath])) { text, configuration throws(SettingValueError) in
            configuration[keyPath: keyPath] = try SettingText.boolean(text)
        }
    }

    /// A setting on by default: `true` or `false` on the command line too.
    private static func switchable(_ flag: String, _ variable: String, _ summary: String,
                                   _ keyPath: WritableKeyPath<ServerConfiguration, Bool> & Sendable) -> ServerSetting {
        setting(flag, variable, "true|false", summary, default: String(defaults[keyPath: keyPath])) { text, configuration throws(SettingValueError) in
            configuration[keyPath: keyPath] = try SettingText.boolean(text)
        }
    }

    /// A credential: kept as a ``SecretSetting``, which never shows its text.
    private static func secret(_ flag: String, _ variable: String, _ valueName: String, _ summary: String,
                               _ keyPath: WritableKeyPath<ServerConfiguration, SecretSetting?> & Sendable) -> ServerSetting {
        setting(flag, variable, valueName, summary, default: "none") { text, configuration throws(SettingValueError) in
            configuration[keyPath: keyPath] = SecretSetting(text)
        }
    }

    /// A list: comma-separated in the variable, the flag repeated on the command line.
    private static func list(_ flag: String, _ variable: String, _ valueName: String, _ summary: String, default defaultText: String,
                             _ keyPath: WritableKeyPath<ServerConfiguration, [String]> & Sendable) -> ServerSetting {
        setting(flag, variable, valueName, summary, default: defaultText, repeated: ",") { text, configuration throws(SettingValueError) in
            configuration[keyPath: keyPath] = SettingText.list(text)
        }
    }
}
