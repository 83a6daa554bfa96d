import Foundation
import WebImage

extension ServerConfiguration {
    /// The settings of listening, URLs and signing, sources and limits, in the order they are listed.
    static let requestsTable: [ServerSetting] = [
        // Files of settings
        setting(thumborConfigFlag, thumborConfigVariable, "FILE",
                "A thumbor.conf whose settings are read under the environment and flags, each of thumbor's by its rule: read, warned about or refused",
                default: "none") { text, configuration throws(SettingValueError) in
            configuration.thumborConfig = text
        },
        setting(environmentFileFlag, environmentFileVariable, "FILE",
                "A .env file (NAME=VALUE lines) whose variables are read over the environment's, as imgproxy's IMGPROXY_ENV_LOCAL_FILE_PATH; flags still win",
                default: "none") { text, configuration throws(SettingValueError) in
            configuration.environmentFile = text
        },
        text("env-aws-secret-id", "IMGPROXY_ENV_AWS_SECRET_ID", "ID",
             "An AWS Secrets Manager secret of .env text whose variables webimage serve reads over the environment's, before --env-file's",
             \.environmentStores.secretID),
        text("env-aws-secret-version-id", "IMGPROXY_ENV_AWS_SECRET_VERSION_ID", "ID", "The version of --env-aws-secret-id to read",
             \.environmentStores.secretVersionID),
        text("env-aws-secret-version-stage", "IMGPROXY_ENV_AWS_SECRET_VERSION_STAGE", "STAGE",
             "The stage of --env-aws-secret-id to read when no version is given (AWS's default AWSCURRENT)", \.environmentStores.secretVersionStage),
        text("env-aws-secret-region", "IMGPROXY_ENV_AWS_SECRET_REGION", "REGION",
             "The region of --env-aws-secret-id, else AWS_REGION's, else us-west-1 (imgproxy's)", \.environmentStores.secretRegion),
        text("env-aws-ssm-parameters-path", "IMGPROXY_ENV_AWS_SSM_PARAMETERS_PATH", "PATH",
             "An AWS Systems Manager path whose text parameters are variables webimage serve reads over the environment's and the secret's (/imgproxy/IMGPROXY_QUALITY is IMGPROXY_QUALITY)",
             \.environmentStores.parametersPath),
        text("env-aws-ssm-parameters-region", "IMGPROXY_ENV_AWS_SSM_PARAMETERS_REGION", "REGION",
             "The region of --env-aws-ssm-parameters-path, else AWS_REGION's, else us-west-1", \.environmentStores.parametersRegion),
        // Listening
        setting("bind", "IMGPROXY_BIND", "HOST:PORT|PATH", "The address to listen on (port 0 picks a free one), or with --network unix a socket's path",
                default: "127.0.0.1:8080") { text, configuration throws(SettingValueError) in
            if text.hasPrefix("/") || text.hasPrefix(".") {
                configuration.listening.socketPath = text
            } else {
                (configuration.listening.host, configuration.listening.port) = try SettingText.address(text)
                configuration.listening.socketPath = nil
            }
        },
        setting("network", "IMGPROXY_NETWORK", "tcp|tcp4|tcp6|unix", "How --bind is listened on: TCP (tcp4 and tcp6 check the address's family), or a Unix socket",
                default: defaults.listening.network.rawValue) { text, configuration throws(SettingValueError) in
            guard let network = ListenNetwork(rawValue: text.lowercased()) else { throw SettingValueError(reason: "is not tcp, tcp4, tcp6 or unix") }
            configuration.listening.network = network
        },
        boolean("so-reuseport", "IMGPROXY_SO_REUSEPORT",
                "Bind with SO_REUSEPORT: several processes listen on the same TCP address and port, the kernel spreading connections among them",
                \.listening.reusePort),
        decimal("timeout", "IMGPROXY_TIMEOUT", "SECONDS",
                "Seconds an image request may take; past it the answer is 504 and its work is cancelled", 0.001...86_400, \.listening.timeout),
        decimal("read-request-timeout", "IMGPROXY_READ_REQUEST_TIMEOUT", "SECONDS",
                "Seconds a new connection has to send its first request head, however slowly its bytes trickle",
                0.001...86_400, \.listening.readRequestTimeout),
        decimal("keep-alive-timeout", "IMGPROXY_KEEP_ALIVE_TIMEOUT", "SECONDS",
                "Seconds a connection may stay idle after an answer, waiting for the next request head; 0 closes each connection after its answer",
                0...86_400, \.listening.keepAliveTimeout),
        decimal("write-response-timeout", "IMGPROXY_WRITE_RESPONSE_TIMEOUT", "SECONDS",
                "Seconds an answer may take to be written, from its head to its last byte; past it the connection closes (a client that stops reading)",
                0.001...86_400, \.listening.writeResponseTimeout),
        setting("graceful-stop-timeout", "IMGPROXY_GRACEFUL_STOP_TIMEOUT", "SECONDS",
                "Seconds requests under way may take to finish after SIGTERM or SIGINT before they are cancelled and the server exits",
                default: "twice --timeout") { text, configuration throws(SettingValueError) in
            configuration.listening.gracefulStopTimeout = try SettingText.decimal(text, in: 0...86_400)
        },
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
        setting("health-check-path", "IMGPROXY_HEALTH_CHECK_PATH", "/PATH",
                "A second path answered as /health is (after the path prefix), for a load balancer that asks its own",
                default: "none") { text, configuration throws(SettingValueError) in
            guard text.isEmpty || (text.hasPrefix("/") && text.count > 1 && !text.contains("?")) else {
                throw SettingValueError(reason: "is not /PATH (a leading slash and a name, no query)")
            }
            guard text != "/health", text != "/metrics" else { throw SettingValueError(reason: "is an endpoint of its own already") }
            configuration.listening.healthCheckPath = text
        },
        secret("secret", "IMGPROXY_SECRET", "SECRET",
               "Answer image requests only when they carry Authorization: Bearer SECRET (a proxy in front adds it), others 403",
               \.listening.secret),
        setting("url-format", "WEBIMAGE_URL_FORMAT", "imgproxy|thumbor|both",
                "The URL forms answered; both tells them apart by the first segment",
                default: defaults.urls.urlFormat.rawValue) { text, configuration throws(SettingValueError) in
            guard let format = ServedURLFormat(rawValue: text) else { throw SettingValueError(reason: "is not imgproxy, thumbor or both") }
            configuration.urls.urlFormat = format
        },
        list("key", "IMGPROXY_KEY", "HEX", "A signing key in hexadecimal; repeat with --salt for key rotation",
             default: "none: URLs are not signed", shown: .masked, \.urls.keys),
        list("salt", "IMGPROXY_SALT", "HEX", "A signing salt in hexadecimal, one per --key", default: "none", shown: .masked, \.urls.salts),
        integer("signature-size", "IMGPROXY_SIGNATURE_SIZE", "N", "Bytes of the digest a signature keeps", 1...32, \.urls.signatureSize),
        list("trusted-signature", "IMGPROXY_TRUSTED_SIGNATURES", "SIGNATURE",
             "A signature accepted for any path while signing is on; repeat for more", default: "none", shown: .masked, \.urls.trustedSignatures),
        setting("thumbor-key", "THUMBOR_SECURITY_KEY", "KEY", "thumbor's security key: thumbor URLs must carry its HMAC-SHA1 signature",
                default: "none", shown: .masked) { text, configuration throws(SettingValueError) in configuration.urls.thumborKey = text },
        boolean("thumbor-allow-unsafe-url", "THUMBOR_ALLOW_UNSAFE_URL",
                "With --thumbor-key, still answer unsigned /unsafe/ thumbor URLs (thumbor's default; off here)", \.urls.thumborAllowUnsafeURL),
        setting("presets-separator", "IMGPROXY_PRESETS_SEPARATOR", "TEXT",
                "What separates the presets of IMGPROXY_PRESETS, for presets whose options hold commas",
                default: defaults.urls.presetsSeparator) { text, configuration throws(SettingValueError) in
            configuration.urls.presetsSeparator = text
        },
        // Repeated flags are joined by line feeds, which no preset holds, whatever the separator.
        setting("preset", "IMGPROXY_PRESETS", "NAME=OPTION/…", "A preset; repeat for more", default: "none",
                repeated: "\n") { text, configuration throws(SettingValueError) in
            configuration.urls.presetsText = text
        },
        setting("presets-path", "IMGPROXY_PRESETS_PATH", "FILE",
                "A file of presets, one a line (blank lines and lines starting with # skipped), after --preset's",
                default: "none") { text, configuration throws(SettingValueError) in
            configuration.urls.presetsFromFile = try SettingText.presetLines(inFile: text)
        },
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
        setting("info-preset", "IMGPROXY_INFO_PRESETS", "NAME=OPTION/…", "An /info preset, of info options; repeat for more", default: "none",
                repeated: "\n") { text, configuration throws(SettingValueError) in
            configuration.urls.infoPresetsText = text
        },
        setting("info-presets-path", "IMGPROXY_INFO_PRESETS_PATH", "FILE", "A file of /info presets, one a line, after --info-preset's",
                default: "none") { text, configuration throws(SettingValueError) in
            configuration.urls.infoPresetsFromFile = try SettingText.presetLines(inFile: text)
        },
        setting("info-only-presets", "IMGPROXY_INFO_ONLY_PRESETS", "true|false", "/info URLs name presets only",
                default: "as --only-presets") { text, configuration throws(SettingValueError) in
            configuration.urls.infoOnlyPresets = try SettingText.boolean(text)
        },
        setting("allowed-info-options", "IMGPROXY_ALLOWED_INFO_OPTIONS", "NAME",
                "An option /info URLs may use (any of its names; presets' own options are not checked); repeat for more",
                default: "none: all", repeated: ",") { text, configuration throws(SettingValueError) in
            let names = SettingText.list(text)
            if let unknown = names.first(where: { InfoOptionName(spelling: Substring($0)) == nil }) {
                throw SettingValueError(reason: "names \"\(unknown)\", which is no imgproxy info option")
            }
            configuration.urls.allowedInfoOptions = names
        },
        setting("arguments-separator", "IMGPROXY_ARGUMENTS_SEPARATOR", "CHARACTER",
                "What separates an imgproxy option's name and arguments", default: ":") { text, configuration throws(SettingValueError) in
            guard text.count == 1, let separator = text.first, separator != "/", separator != "@", separator != "." else {
                throw SettingValueError(reason: "is not one character other than / @ .")
            }
            configuration.urls.argumentsSeparator = separator
        },
        setting("base-url", "IMGPROXY_BASE_URL", "URL", "Put before every imgproxy source URL that does not start with it",
                default: "none", shown: .withoutURLCredentials) { text, configuration throws(SettingValueError) in
            configuration.urls.baseURL = text
        },
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
        setting("thumbor-allowed-source", "THUMBOR_ALLOWED_SOURCES", "HOST|PATTERN|~URL-PATTERN",
                "A host an HTTP source must have, a regular expression its whole host must match (one holding \\ ^ $ * + ? { } [ ] ( ) |), or after ~ one the URL must start with, as thumbor's ALLOWED_SOURCES; repeat for more, a line each in the variable",
                default: "none: any", repeated: "\n") { text, configuration throws(SettingValueError) in
            var patterns: [ThumborSourcePattern] = []
            for entry in text.split(whereSeparator: \.isNewline) where !entry.trimmingCharacters(in: .whitespaces).isEmpty {
                patterns.append(try ThumborSourcePattern(setting: entry.trimmingCharacters(in: .whitespaces)))
            }
            configuration.sources.thumborAllowedSources = patterns
        },
        boolean("allow-loopback-sources", "IMGPROXY_ALLOW_LOOPBACK_SOURCE_ADDRESSES",
                "Fetch sources that resolve to loopback addresses (127.0.0.0/8, ::1)", \.sources.allowLoopbackSources),
        boolean("allow-private-sources", "IMGPROXY_ALLOW_PRIVATE_SOURCE_ADDRESSES",
                "Fetch sources that resolve to private, carrier-grade NAT or other special addresses (never link-local, where metadata services live)",
                \.sources.allowPrivateSources),
        setting("thumbor-loader", "THUMBOR_LOADER", "http|file|file-or-http",
                "How a thumbor image is read: over HTTP, one without a scheme as http://; as a file under --local-root, whatever it holds (thumbor's file_loader); or over HTTP when it starts http:// or https://, else as a file and, when there is none, as http:// (file_loader_http_fallback)",
                default: defaults.sources.thumborLoader.rawValue) { text, configuration throws(SettingValueError) in
            guard let loader = ThumborLoader(setting: text) else { throw SettingValueError(reason: "is not http, file or file-or-http") }
            configuration.sources.thumborLoader = loader
        },
        setting("local-root", "IMGPROXY_LOCAL_FILESYSTEM_ROOT", "FOLDER", "The folder local:///PATH sources are read from",
                default: "the current folder when listening on loopback, else none: refused") { text, configuration throws(SettingValueError) in
            configuration.sources.localRoot = text
        },
        decimal("download-timeout", "IMGPROXY_DOWNLOAD_TIMEOUT", "SECONDS",
                "Seconds a source download may take in all, however steadily its bytes trickle", 0.001...86_400, \.sources.downloadTimeout),
        decimal("client-keep-alive-timeout", "IMGPROXY_CLIENT_KEEP_ALIVE_TIMEOUT", "SECONDS",
                "Seconds a connection to an origin may stay idle for the next source from the same host and address; 0 opens a connection per fetch",
                0...86_400, \.sources.clientKeepAliveTimeout),
        integer("max-redirects", "IMGPROXY_MAX_REDIRECTS", "N", "Redirects a source download follows, each one's address checked again",
                0...100, \.sources.maxRedirects),
        setting("user-agent", "IMGPROXY_USER_AGENT", "TEXT",
                "The User-Agent sent to origins; %current_version stands for WebImage's version",
                default: "WebImage/VERSION (Linux)") { text, configuration throws(SettingValueError) in
            guard !text.isEmpty, text.unicodeScalars.allSatisfy({ (0x20...0x7E).contains($0.value) }) else {
                throw SettingValueError(reason: "is not a field value in printable ASCII")
            }
            configuration.sources.userAgent = text.replacingOccurrences(of: "%current_version", with: WebImageVersion.string)
        },
        boolean("ignore-ssl-verification", "IMGPROXY_IGNORE_SSL_VERIFICATION",
                "Fetch HTTPS sources whatever their certificate (self-signed origins on a private network)",
                \.sources.ignoreSSLVerification),
        boolean("cookie-passthrough", "IMGPROXY_COOKIE_PASSTHROUGH",
                "Send a client's cookies on to the source's origin when their scope (the address asked, or --cookie-base-url) covers it; such a download is never cached",
                \.sources.cookiePassthrough),
        boolean("cookie-passthrough-all", "IMGPROXY_COOKIE_PASSTHROUGH_ALL",
                "With --cookie-passthrough, send every cookie to every http(s) source, whatever its address", \.sources.cookiePassthroughAll),
        setting("cookie-base-url", "IMGPROXY_COOKIE_BASE_URL", "URL",
                "With --cookie-passthrough, the address a client's cookies are scoped to, instead of the one it asked",
                default: "the address asked") { text, configuration throws(SettingValueError) in
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                  url.host?.isEmpty == false else {
                throw SettingValueError(reason: "is not an http(s) URL with a host")
            }
            configuration.sources.cookieBaseURL = url
        },
        boolean("thumbor-forward-all-headers", "THUMBOR_HTTP_LOADER_FORWARD_ALL_HEADERS",
                "Send every header of a client's request (but those about its connection) on to the origin with a thumbor URL's download, never cached, as thumbor's HTTP_LOADER_FORWARD_ALL_HEADERS",
                \.sources.thumborForwardAllHeaders),
        setting("thumbor-forward-header", "THUMBOR_HTTP_LOADER_FORWARD_HEADERS_WHITELIST", "NAME",
                "A header of a client's request sent on to the origin with a thumbor URL's download, never cached (repeat for more; commas in the variable), as thumbor's HTTP_LOADER_FORWARD_HEADERS_WHITELIST",
                default: "none", repeated: ",") { text, configuration throws(SettingValueError) in
            let names = SettingText.list(text)
            guard names.allSatisfy(HTTPToken.isToken) else { throw SettingValueError(reason: "holds a name that is no header name") }
            configuration.sources.thumborForwardHeaders = names
        },
        boolean("thumbor-forward-user-agent", "THUMBOR_HTTP_LOADER_FORWARD_USER_AGENT",
                "Send a client's User-Agent instead of --user-agent with a thumbor URL's download, never cached, as thumbor's HTTP_LOADER_FORWARD_USER_AGENT",
                \.sources.thumborForwardUserAgent),
        setting("source-url-query-separator", "IMGPROXY_SOURCE_URL_QUERY_SEPARATOR", "TEXT",
                "What splits an s3:// or local:// source's key from its query (an S3 version); empty: none, a ? is part of the name",
                default: "?", emptyIsAValue: true) { text, configuration throws(SettingValueError) in
            configuration.sources.sourceURLQuerySeparator = text
        },
        setting("http-proxy", "HTTP_PROXY", "URL", "The forward proxy of http sources (http://[USER:PASSWORD@]HOST[:PORT]), as imgproxy's downloads read HTTP_PROXY; never for localhost and loopback addresses",
                default: "none", shown: .masked) { text, configuration throws(SettingValueError) in
            configuration.sources.httpProxy = try proxy(text)
        },
        setting("https-proxy", "HTTPS_PROXY", "URL", "The forward proxy of https sources (a CONNECT tunnel), as HTTPS_PROXY",
                default: "none", shown: .masked) { text, configuration throws(SettingValueError) in
            configuration.sources.httpsProxy = try proxy(text)
        },
        setting("no-proxy", "NO_PROXY", "HOSTS", "Hosts fetched directly whatever --http-proxy and --https-proxy: *, names (and their subdomains), addresses, CIDR blocks, each with an optional :port; commas between",
                default: "none", repeated: ",") { text, configuration throws(SettingValueError) in
            configuration.sources.noProxy = HTTPProxyRule.directHosts(in: text)
        },
        text("source-proxy-host", "THUMBOR_HTTP_LOADER_PROXY_HOST", "HOST",
             "The forward proxy every source is fetched through, loopback ones too, over the environment's (thumbor's HTTP_LOADER_PROXY_HOST)",
             \.sources.sourceProxyHost),
        setting("source-proxy-port", "THUMBOR_HTTP_LOADER_PROXY_PORT", "PORT", "The port of --source-proxy-host (thumbor's HTTP_LOADER_PROXY_PORT), 1…65535",
                default: "none") { text, configuration throws(SettingValueError) in
            configuration.sources.sourceProxyPort = try SettingText.integer(text, in: 1...65_535)
        },
        text("source-proxy-username", "THUMBOR_HTTP_LOADER_PROXY_USERNAME", "NAME", "The user of --source-proxy-host's basic credentials",
             \.sources.sourceProxyUsername),
        text("source-proxy-password", "THUMBOR_HTTP_LOADER_PROXY_PASSWORD", "PASSWORD", "The password of --source-proxy-host's basic credentials",
             shown: .masked, \.sources.sourceProxyPassword),
        setting("source-ca-certs", "THUMBOR_HTTP_LOADER_CA_CERTS", "FILE", "A PEM file of the certificates https sources are verified against instead of the system's roots (thumbor's HTTP_LOADER_CA_CERTS)",
                default: "the system's") { text, configuration throws(SettingValueError) in
            do {
                _ = try HTTPClientCertificate.certificates(inPEMFile: text)
            } catch {
                throw SettingValueError(reason: "cannot be read as PEM certificates: \(error)")
            }
            configuration.sources.caCertificatesFile = text
        },
        text("source-client-cert", "THUMBOR_HTTP_LOADER_CLIENT_CERT", "FILE",
             "A PEM certificate chain shown to https origins that ask for a client certificate, with --source-client-key (thumbor's HTTP_LOADER_CLIENT_CERT)",
             \.sources.clientCertificateFile),
        text("source-client-key", "THUMBOR_HTTP_LOADER_CLIENT_KEY", "FILE", "The PEM private key of --source-client-cert (thumbor's HTTP_LOADER_CLIENT_KEY)",
             \.sources.clientKeyFile),
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
        boolean("allow-bypass-cache", "IMGPROXY_ALLOW_BYPASS_CACHE",
                "Let imgproxy URLs use bypass_cache, which makes a result afresh from a new download; otherwise it is 403",
                \.urls.allowBypassCache),
        decimal("max-result-resolution", "WEBIMAGE_MAX_RESULT_RESOLUTION", "MEGAPIXELS",
                "The most megapixels a result may have, all frames together", 0.000001...100_000, \.limits.maxResultResolution),
        integer("max-result-dimension", "IMGPROXY_MAX_RESULT_DIMENSION", "PIXELS",
                "The longest side a result of an imgproxy URL may have, shrunk to it keeping its aspect (the default of its mrd); 0 for no bound",
                0...1_000_000, \.limits.maxResultDimension),
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
    ]

    /// The proxy an `HTTP_PROXY`-style `text` names.
    private static func proxy(_ text: String) throws(SettingValueError) -> HTTPProxy {
        guard let proxy = HTTPProxy(url: text) else { throw SettingValueError(reason: "is not an http:// proxy URL with a host") }
        return proxy
    }
}
