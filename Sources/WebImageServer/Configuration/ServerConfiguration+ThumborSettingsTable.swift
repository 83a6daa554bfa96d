import Foundation

extension ServerConfiguration {
    /// Every setting thumbor reads from its `thumbor.conf` (the `Config.define`s of thumbor's
    /// `thumbor/config.py`; a test checks the list), each with what `--thumbor-config` does when
    /// the file assigns it: read into a flag, a warning for those that change nothing an answer
    /// or its safety depends on here, an error for the others unless they hold thumbor's default.
    public static let thumborSettings: [ThumborSetting] = [
        // Logging
        ignoredThumbor("THUMBOR_LOG_CONFIG", "Python's logging configuration; --log-level and --log-format set the logs here"),
        ignoredThumbor("THUMBOR_LOG_FORMAT", "Python's log line format; --log-format sets the logs' here"),
        ignoredThumbor("THUMBOR_LOG_DATE_FORMAT", "Python's log date format; --log-format sets the logs' here"),
        // Imaging
        thumbor("MAX_WIDTH", "thumbor-max-width"),
        thumbor("MAX_HEIGHT", "thumbor-max-height"),
        thumbor("MAX_PIXELS", "max-src-resolution",
                "in pixels there, megapixels here (thumbor makes Pillow's warning past it an error); None for the largest bound") { value throws(SettingValueError) in
            if value == .none { return "100000" }
            guard let text = try value.settingText(), let pixels = Double(text), pixels > 0 else {
                throw SettingValueError(reason: "is not a number of pixels above 0")
            }
            return (pixels / 1_000_000).plainText
        },
        ignoredThumbor("MIN_WIDTH", "thumbor defines it and reads it nowhere"),
        ignoredThumbor("MIN_HEIGHT", "thumbor defines it and reads it nowhere"),
        thumbor("ALLOWED_SOURCES", "thumbor-allowed-source", "strings as thumbor reads them, re.compile('…') as ~PATTERN") { value throws(SettingValueError) in
            guard let items = value.items else { throw SettingValueError(reason: "is not a list of hosts and patterns") }
            var entries: [String] = []
            for item in items {
                switch item {
                case .string(let entry) where entry.contains(where: \.isNewline), .pattern(let entry) where entry.contains(where: \.isNewline):
                    throw SettingValueError(reason: "holds \(item.described), which has a line break; write the pattern on one line")
                case .string(let host) where host.hasPrefix("~"):
                    // The setting's text reads ~ as a URL pattern's mark: a host starting ~ is the pattern of it.
                    entries.append("\\~" + NSRegularExpression.escapedPattern(for: String(host.dropFirst())))
                case .string(let host): entries.append(host)
                case .pattern(let pattern): entries.append("~" + pattern)
                default: throw SettingValueError(reason: "holds \(item.described), where a host or a pattern was expected")
                }
            }
            return entries.joined(separator: "\n")
        },
        thumbor("QUALITY", "quality", "for both URL forms"),
        thumbor("PROGRESSIVE_JPEG", "thumbor-progressive-jpeg"),
        refusedThumbor("PILLOW_JPEG_SUBSAMPLING", default: .none, "chroma subsampling is libjpeg-turbo's 4:2:0 here"),
        refusedThumbor("PILLOW_JPEG_QTABLES", default: .none, "quantization tables are libjpeg-turbo's for the quality here"),
        refusedThumbor("PILLOW_RESAMPLING_FILTER", default: .string("LANCZOS"), "images are resized with Lanczos here") {
            $0.isPythonEqual(to: .string("LANCZOS")) || $0.isPythonEqual(to: .string("ANTIALIAS"))
        },
        thumbor("WEBP_QUALITY", "format-quality", "as webp=Q; None leaves --quality; 100 writes a thumbor URL's WebP losslessly, as thumbor",
                text: formatQuality("webp")),
        thumbor("AVIF_QUALITY", "format-quality", "as avif=Q; None leaves --quality", text: formatQuality("avif")),
        thumbor("AVIF_SPEED", "avif-speed", "None and 0 leave it, as thumbor passes Pillow no speed then; 10 as 9, the fastest here") { value throws(SettingValueError) in
            if value == .none || value.isPythonEqual(to: .integer(0)) { return nil }
            return value.isPythonEqual(to: .integer(10)) ? "9" : try value.settingText()
        },
        ignoredThumbor("AVIF_CODEC", "AVIF is encoded by libavif with libaom here, whatever codec is named"),
        ignoredThumbor("AVIF_CODEC_FALLBACK", "AVIF is encoded by libavif with libaom here, whatever codec is named"),
        thumbor("HEIF_QUALITY", "format-quality", "as heic=Q; None as heic=75, as thumbor writes HEIF (unassigned, --quality)") { value throws(SettingValueError) in
            try formatQuality("heic")(value == .none ? .integer(75) : value)
        },
        refusedThumbor("SRGB_PROFILE", default: .none, "results are converted to sRGB with lcms2's built-in profile, not one from a file"),
        ignoredThumbor("PNG_COMPRESSION_LEVEL", "the PNG writer chooses its own zlib level; the pixels are the same"),
        ignoredThumbor("PILLOW_PRESERVE_INDEXED_MODE", "palette results are written as truecolour PNG; the pixels are the same"),
        thumbor("AUTO_WEBP", "auto-webp"),
        thumbor("AUTO_AVIF", "auto-avif"),
        thumbor("AUTO_JPG", "auto-jpg"),
        thumbor("AUTO_HEIF", "auto-heif"),
        thumbor("AUTO_PNG", "auto-png"),
        thumbor("AUTO_PNG_TO_JPG", "auto-png-to-jpg"),
        thumbor("AUTO_IMAGE_FORMAT_PREFERENCE", "auto-image-format-preference"),
        thumbor("SVG_DPI", "svg-dpi"),
        thumbor("MAX_AGE", "ttl", "for both URL forms; 0 as max-age=0, where thumbor sends no Cache-Control"),
        ignoredThumbor("MAX_AGE_TEMP_IMAGE", "no image is answered before its detectors have run here"),
        thumbor("RESPECT_ORIENTATION", "thumbor-respect-orientation"),
        ignoredThumbor("IGNORE_SMART_ERRORS", "smart crops fall back to the centre here, never an error"),
        thumbor("SEND_IF_MODIFIED_LAST_MODIFIED_HEADERS", "use-last-modified"),
        thumbor("PRESERVE_EXIF_INFO", "thumbor-preserve-exif-info"),
        thumbor("PRESERVE_EXIF_COPYRIGHT_INFO", "thumbor-preserve-exif-copyright-info"),
        refusedThumbor("PRESERVE_IPTC_INFO", default: .boolean(false), "a result keeps no IPTC block here"),
        thumbor("ALLOW_ANIMATED_GIFS", "max-animation-frames", "False as 1 (every animation made still, WebP and PNG too); True leaves it") { value throws(SettingValueError) in
            guard case .boolean(let allowed) = value else { throw SettingValueError(reason: "is not True or False") }
            return allowed ? nil : "1"
        },
        ignoredThumbor("USE_GIFSICLE_ENGINE", "animations are written by the GIF encoder here, without gifsicle"),
        refusedThumbor("USE_BLACKLIST", default: .boolean(false), "thumbor's /blacklist endpoint is not built here"),
        ignoredThumbor("ENGINE_THREADPOOL_SIZE", "--concurrency bounds image work here"),
        // Extensibility
        ignoredThumbor("METRICS", "metrics are Prometheus's, at /metrics or --prometheus-bind"),
        thumbor("LOADER", "thumbor-loader", "thumbor.loaders.http_loader, file_loader or file_loader_http_fallback"),
        ignoredThumbor("STORAGE", "sources are kept by the memory, disk (--cache-dir) and Redis tiers here"),
        ignoredThumbor("RESULT_STORAGE", "results are kept by --cache-dir, --redis and --result-storage here"),
        ignoredThumbor("ENGINE", "images are decoded and resized by WebImage's pipeline here"),
        ignoredThumbor("GIF_ENGINE", "animations are decoded and resized by WebImage's pipeline here"),
        // Security
        thumbor("SECURITY_KEY", "thumbor-key"),
        thumbor("ALLOW_UNSAFE_URL", "thumbor-allow-unsafe-url"),
        // HTTP
        thumbor("ENABLE_ETAGS", "use-etag"),
        // Storage
        ignoredThumbor("MAX_ID_LENGTH", "thumbor's upload and storage ids; there is neither here"),
        // Performance
        ignoredThumbor("GC_INTERVAL", "Python's garbage collector"),
        // Health
        thumbor("HEALTHCHECK_ROUTE", "health-check-path", "a path, with thumbor's optional trailing /?; /healthcheck is answered anyway") { value throws(SettingValueError) in
            guard case .string(var route) = value else { throw SettingValueError(reason: "is not a path") }
            if route.hasPrefix("^") { route.removeFirst() }
            if route.hasSuffix("$") { route.removeLast() }
            if route.hasSuffix("/?") { route.removeLast(2) }
            guard !route.contains(where: "\\^$*+?{}[]()|".contains) else {
                throw SettingValueError(reason: "is a pattern; only a path, with an optional /? after it, is read here")
            }
            return route
        },
        // Metrics
        ignoredThumbor("STATSD_HOST", "no StatsD client; metrics are Prometheus's"),
        ignoredThumbor("STATSD_PORT", "no StatsD client; metrics are Prometheus's"),
        ignoredThumbor("STATSD_PREFIX", "no StatsD client; --prometheus-namespace names metrics"),
        // File loader
        thumbor("FILE_LOADER_ROOT_PATH", "local-root",
                "when unassigned, --local-root's default rather than thumbor's $HOME",
                onlyWith: ThumborSetting.Requirement(name: "LOADER", described: "naming a file loader") { value in
                    guard case .string(let module) = value else { return false }
                    return ThumborLoader(setting: module)?.readsFiles == true
                }),
        // HTTP loader
        ignoredThumbor("HTTP_LOADER_CONNECT_TIMEOUT", "the download's whole deadline, HTTP_LOADER_REQUEST_TIMEOUT, bounds connecting too"),
        thumbor("HTTP_LOADER_REQUEST_TIMEOUT", "download-timeout"),
        thumbor("HTTP_LOADER_FOLLOW_REDIRECTS", "max-redirects", "False as 0; True leaves it") { value throws(SettingValueError) in
            guard case .boolean(let follows) = value else { throw SettingValueError(reason: "is not True or False") }
            return follows ? nil : "0"
        },
        thumbor("HTTP_LOADER_MAX_REDIRECTS", "max-redirects",
                onlyWith: ThumborSetting.Requirement(name: "HTTP_LOADER_FOLLOW_REDIRECTS", described: "True, its default") { value in
                    value.map { !$0.isPythonEqual(to: .boolean(false)) } ?? true
                }),
        ignoredThumbor("HTTP_LOADER_MAX_CLIENTS", "connections to origins are pooled by AsyncHTTPClient here"),
        thumbor("HTTP_LOADER_FORWARD_USER_AGENT", "thumbor-forward-user-agent"),
        thumbor("HTTP_LOADER_FORWARD_ALL_HEADERS", "thumbor-forward-all-headers"),
        thumbor("HTTP_LOADER_FORWARD_HEADERS_WHITELIST", "thumbor-forward-header"),
        thumbor("HTTP_LOADER_DEFAULT_USER_AGENT", "user-agent"),
        thumbor("HTTP_LOADER_PROXY_HOST", "source-proxy-host"),
        thumbor("HTTP_LOADER_PROXY_PORT", "source-proxy-port"),
        thumbor("HTTP_LOADER_PROXY_USERNAME", "source-proxy-username"),
        thumbor("HTTP_LOADER_PROXY_PASSWORD", "source-proxy-password"),
        thumbor("HTTP_LOADER_CA_CERTS", "source-ca-certs"),
        thumbor("HTTP_LOADER_VALIDATE_CERTS", "ignore-ssl-verification", "False as true; True and None leave it") { value throws(SettingValueError) in
            switch value {
            case .none, .boolean(true): return nil
            case .boolean(false): return "true"
            default: throw SettingValueError(reason: "is not True, False or None")
            }
        },
        thumbor("HTTP_LOADER_CLIENT_KEY", "source-client-key"),
        thumbor("HTTP_LOADER_CLIENT_CERT", "source-client-cert"),
        ignoredThumbor("HTTP_LOADER_CURL_ASYNC_HTTP_CLIENT", "sources are fetched by AsyncHTTPClient here"),
        ignoredThumbor("HTTP_LOADER_CURL_LOW_SPEED_TIME", "the download's whole deadline bounds slow origins here"),
        ignoredThumbor("HTTP_LOADER_CURL_LOW_SPEED_LIMIT", "the download's whole deadline bounds slow origins here"),
        // File storage
        ignoredThumbor("STORAGE_EXPIRATION_SECONDS", "sources are kept by the cache tiers here, bounded by size"),
        ignoredThumbor("STORES_CRYPTO_KEY_FOR_EACH_IMAGE", "no per-image keys are stored here"),
        ignoredThumbor("FILE_STORAGE_ROOT_PATH", "sources are kept under --cache-dir here"),
        // Upload
        ignoredThumbor("UPLOAD_MAX_SIZE", "only read with UPLOAD_ENABLED, which is refused"),
        refusedThumbor("UPLOAD_ENABLED", default: .boolean(false), "thumbor's /image upload endpoint is not built here"),
        ignoredThumbor("UPLOAD_PHOTO_STORAGE", "only read with UPLOAD_ENABLED, which is refused"),
        ignoredThumbor("UPLOAD_DELETE_ALLOWED", "only read with UPLOAD_ENABLED, which is refused"),
        ignoredThumbor("UPLOAD_PUT_ALLOWED", "only read with UPLOAD_ENABLED, which is refused"),
        ignoredThumbor("UPLOAD_DEFAULT_FILENAME", "only read with UPLOAD_ENABLED, which is refused"),
        // Mixed storage
        ignoredThumbor("MIXED_STORAGE_FILE_STORAGE", "only read with STORAGE set to the mixed storage, which is ignored"),
        ignoredThumbor("MIXED_STORAGE_CRYPTO_STORAGE", "only read with STORAGE set to the mixed storage, which is ignored"),
        ignoredThumbor("MIXED_STORAGE_DETECTOR_STORAGE", "only read with STORAGE set to the mixed storage, which is ignored"),
        // Meta
        refusedThumbor("META_CALLBACK_NAME", default: .none, "a meta URL's JSONP callback comes from its callback parameter only here"),
        // Detection
        refusedThumbor("DETECTORS", default: .list([]), "smart crops use the image's own features here; no face or feature detector runs") {
            $0.items?.isEmpty == true
        },
        ignoredThumbor("FACE_DETECTOR_CASCADE_FILE", "only read with DETECTORS, which is refused"),
        ignoredThumbor("GLASSES_DETECTOR_CASCADE_FILE", "only read with DETECTORS, which is refused"),
        ignoredThumbor("PROFILE_DETECTOR_CASCADE_FILE", "only read with DETECTORS, which is refused"),
        // Optimizers
        refusedThumbor("OPTIMIZERS", default: .list([]), "no optimizer (jpegtran, gifv) runs on results here") { $0.items?.isEmpty == true },
        ignoredThumbor("JPEGTRAN_PATH", "only read with OPTIMIZERS, which is refused"),
        ignoredThumbor("JPEGTRAN_SCANS_FILE", "only read with OPTIMIZERS, which is refused"),
        ignoredThumbor("FFMPEG_PATH", "only read with OPTIMIZERS, which is refused"),
        // Filters
        refusedThumbor("FILTERS", default: .list(builtinThumborFilters.sorted().map { .string("thumbor.filters." + $0) }),
                       "every built-in filter is answered here; a list without some of them is not enforced") { value in
            let modules = Set((value.items ?? []).compactMap { item in if case .string(let module) = item { module } else { nil } })
            return value.items != nil && builtinThumborFilters.allSatisfy { modules.contains("thumbor.filters." + $0) }
        },
        // Result storage
        ignoredThumbor("RESULT_STORAGE_EXPIRATION_SECONDS", "results are kept by the cache tiers here, bounded by size and --redis-ttl"),
        ignoredThumbor("RESULT_STORAGE_FILE_STORAGE_ROOT_PATH", "results are kept under --cache-dir here"),
        ignoredThumbor("RESULT_STORAGE_STORES_UNSAFE", "results of unsigned URLs are kept as signed ones' are here"),
        // Queued detectors
        ignoredThumbor("REDIS_QUEUE_SERVER_HOST", "only read with a queued detector, which DETECTORS cannot name here"),
        ignoredThumbor("REDIS_QUEUE_SERVER_PORT", "only read with a queued detector, which DETECTORS cannot name here"),
        ignoredThumbor("REDIS_QUEUE_SERVER_DB", "only read with a queued detector, which DETECTORS cannot name here"),
        ignoredThumbor("REDIS_QUEUE_SERVER_PASSWORD", "only read with a queued detector, which DETECTORS cannot name here"),
        ignoredThumbor("REDIS_QUEUE_MODE", "only read with a queued detector, which DETECTORS cannot name here"),
        ignoredThumbor("REDIS_QUEUE_SENTINEL_INSTANCES", "only read with a queued detector, which DETECTORS cannot name here"),
        ignoredThumbor("REDIS_QUEUE_SENTINEL_PASSWORD", "only read with a queued detector, which DETECTORS cannot name here"),
        ignoredThumbor("REDIS_QUEUE_SENTINEL_MASTER_INSTANCE", "only read with a queued detector, which DETECTORS cannot name here"),
        ignoredThumbor("REDIS_QUEUE_SENTINEL_MASTER_PASSWORD", "only read with a queued detector, which DETECTORS cannot name here"),
        ignoredThumbor("REDIS_QUEUE_SENTINEL_MASTER_DB", "only read with a queued detector, which DETECTORS cannot name here"),
        ignoredThumbor("REDIS_QUEUE_SENTINEL_SOCKET_TIMEOUT", "only read with a queued detector, which DETECTORS cannot name here"),
        ignoredThumbor("SQS_QUEUE_KEY_ID", "only read with a queued detector, which DETECTORS cannot name here"),
        ignoredThumbor("SQS_QUEUE_KEY_SECRET", "only read with a queued detector, which DETECTORS cannot name here"),
        ignoredThumbor("SQS_QUEUE_REGION", "only read with a queued detector, which DETECTORS cannot name here"),
        // Errors
        ignoredThumbor("USE_CUSTOM_ERROR_HANDLING", "no error reporter module runs here; errors are logged"),
        ignoredThumbor("ERROR_HANDLER_MODULE", "only read with USE_CUSTOM_ERROR_HANDLING, which is ignored"),
        ignoredThumbor("SENTRY_DSN_URL", "no Sentry client"),
        ignoredThumbor("SENTRY_ENVIRONMENT", "no Sentry client"),
        ignoredThumbor("ERROR_FILE_LOGGER", "errors are logged with every other line here"),
        ignoredThumbor("ERROR_FILE_NAME_USE_CONTEXT", "only read with ERROR_FILE_LOGGER, which is ignored"),
        refusedThumbor("URL_SIGNER", default: .string("libthumbor.url_signers.base64_hmac_sha1"),
                       "thumbor URLs are signed with HMAC-SHA1 in URL-safe base64 here"),
        // Server
        ignoredThumbor("MAX_WAIT_SECONDS_BEFORE_SERVER_SHUTDOWN", "new connections stop being accepted at once on SIGTERM here"),
        thumbor("MAX_WAIT_SECONDS_BEFORE_IO_SHUTDOWN", "graceful-stop-timeout",
                "0, thumbor's default, leaves it, so requests under way are not cut off") { value throws(SettingValueError) in
            value.isPythonEqual(to: .integer(0)) ? nil : try value.settingText()
        },
        ignoredThumbor("NON_BLOCKING_SOCKETS", "every socket is non-blocking here"),
        refusedThumbor("HANDLER_LISTS", default: .list(["healthcheck", "upload", "blacklist"].map { .string("thumbor.handler_lists." + $0) }),
                       "the endpoints here are images, /healthcheck, /health and /metrics; other handler lists are not built") {
            namesModules($0, prefix: "thumbor.handler_lists.", allowed: ["healthcheck", "upload", "blacklist"])
        },
        refusedThumbor("APP_CLASS", default: .string("thumbor.app.ThumborServiceApp"), "the server's application is its own"),
        thumbor("ACCESS_CONTROL_ALLOW_ORIGIN_HEADER", "allow-origin", "False for none") { value throws(SettingValueError) in
            switch value {
            case .boolean(false), .none: return nil
            case .string(let origin): return origin
            default: throw SettingValueError(reason: "is not False or an origin")
            }
        },
        // Compatibility
        refusedThumbor("COMPATIBILITY_LEGACY_LOADER", default: .none, "thumbor's legacy loaders are Python modules"),
        refusedThumbor("COMPATIBILITY_LEGACY_STORAGE", default: .none, "thumbor's legacy storages are Python modules"),
        refusedThumbor("COMPATIBILITY_LEGACY_RESULT_STORAGE", default: .none, "thumbor's legacy result storages are Python modules"),
    ]

    /// thumbor's other names of its settings (`Config.alias` in `thumbor/config.py`), each read
    /// as the setting it stands for.
    static let thumborAliases = [
        "MAX_SIZE": "UPLOAD_MAX_SIZE", "ENABLE_ORIGINAL_PHOTO_UPLOAD": "UPLOAD_ENABLED",
        "ORIGINAL_PHOTO_STORAGE": "UPLOAD_PHOTO_STORAGE", "ALLOW_ORIGINAL_PHOTO_DELETION": "UPLOAD_DELETE_ALLOWED",
        "ALLOW_ORIGINAL_PHOTO_PUTTING": "UPLOAD_PUT_ALLOWED",
    ]

    /// The filters thumbor's `BUILTIN_FILTERS` names (`thumbor.filters.NAME`).
    static let builtinThumborFilters: Set<String> = [
        "brightness", "colorize", "contrast", "rgb", "round_corner", "quality", "noise", "watermark", "equalize", "fill",
        "sharpen", "strip_exif", "strip_icc", "frame", "grayscale", "rotate", "format", "max_bytes", "convolution", "blur",
        "extract_focal", "focal", "no_upscale", "saturation", "max_age", "curve", "background_color", "upscale", "proportion",
        "stretch",
    ]
}
