import Foundation

extension ServerConfiguration {
    /// How URLs are read and checked: the forms answered, imgproxy's and thumbor's signing, presets, and the rewriting of source URLs (the router and its parsers).
    public struct URLSettings: Sendable, Equatable {
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
        /// The presets as given: `IMGPROXY_PRESETS`' text, or the `--preset` flags' joined by
        /// line feeds; split by ``presets`` once every setting is read, so that the separator
        /// applies wherever it was given.
        public var presetsText = ""
        /// What separates the presets of one `IMGPROXY_PRESETS` (imgproxy's `IMGPROXY_PRESETS_SEPARATOR`).
        public var presetsSeparator = ","
        /// Presets, `NAME=OPTION/OPTION/…`: ``presetsText`` split at line feeds and at ``presetsSeparator``.
        public var presets: [String] { Self.definitions(presetsText, separator: presetsSeparator) }
        /// Presets read from the file of `IMGPROXY_PRESETS_PATH`, one a line (blank lines and
        /// lines starting with `#` skipped), after ``presets``.
        public var presetsFromFile: [String] = []
        /// Whether imgproxy URLs name presets only, in the one segment before the source.
        public var onlyPresets = false
        /// The imgproxy options URLs may use, by any of their names; empty allows all.
        public var allowedProcessingOptions: [String] = []
        /// The `/info` presets as given (imgproxy's `IMGPROXY_INFO_PRESETS`), split as ``presetsText``.
        public var infoPresetsText = ""
        /// `/info` presets, `NAME=OPTION/OPTION/…`, with the info options.
        public var infoPresets: [String] { Self.definitions(infoPresetsText, separator: presetsSeparator) }
        /// `/info` presets read from the file of `IMGPROXY_INFO_PRESETS_PATH`, after ``infoPresets``.
        public var infoPresetsFromFile: [String] = []
        /// Whether `/info` URLs name presets only (imgproxy's `IMGPROXY_INFO_ONLY_PRESETS`); nil
        /// follows ``onlyPresets``, as imgproxy's default does.
        public var infoOnlyPresets: Bool?
        /// The info options `/info` URLs may use, by any of their names; empty allows all
        /// (imgproxy's `IMGPROXY_ALLOWED_INFO_OPTIONS`).
        public var allowedInfoOptions: [String] = []
        /// What separates an imgproxy option's name and arguments.
        public var argumentsSeparator: Character = ":"
        /// Put before every imgproxy source URL as written.
        public var baseURL = ""
        /// `PATTERN=REPLACEMENT` rewrites of imgproxy source URLs, applied in order before
        /// ``baseURL`` (see ``URLReplacement``).
        public var urlReplacements: [String] = []
        /// Whether the last segment of a base64 source with more than one is a file name.
        public var base64URLIncludesFilename = false
        /// Whether imgproxy URLs start from the browser's client hints (`Sec-CH-DPR`, `DPR`,
        /// `Sec-CH-Width`, `Width`); answers then vary by them.
        public var enableClientHints = false
        /// Whether imgproxy URLs may use `bypass_cache` (imgproxy's `IMGPROXY_ALLOW_BYPASS_CACHE`);
        /// otherwise it is refused with 403: a URL that skips the cache makes the server work.
        public var allowBypassCache = false

        /// The defaults.
        public init() {}

        /// Preset definitions in `text`: split at line feeds (between repeated flags) and at
        /// `separator`, blanks dropped.
        private static func definitions(_ text: String, separator: String) -> [String] {
            text.split(separator: "\n").flatMap { $0.components(separatedBy: separator) }
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
    }
}
