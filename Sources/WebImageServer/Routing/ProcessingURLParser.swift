import Foundation
import WebImage

/// Parses request paths in imgproxy's URL format into ``ProcessingURL`` values:
///
/// ```
/// /{signature}/{option}/…/plain/{percent-encoded source URL}[@{extension}]
/// /{signature}/{option}/…/{URL-safe base64 of the source URL, may be split by /}[.{extension}]
/// ```
///
/// Options are the segments before the source that contain the ``argumentsSeparator`` (`:`).
/// Every input either parses or throws a ``ProcessingURLError``; the limits bound the work any
/// path can cause.
public struct ProcessingURLParser: Sendable {
    /// The presets `preset`/`pr` may name; `default` applies to every URL.
    public var presets: ProcessingPresets
    /// The bounds on path length, option count and values.
    public var limits: ProcessingURLLimits
    /// Put before every source URL as written (imgproxy's `IMGPROXY_BASE_URL`), so URLs may
    /// name `lorem/ipsum.jpg` for `http://images.dev/lorem/ipsum.jpg`; empty: none.
    public var baseURL = ""
    /// Applied to every source URL before the base URL, in order (imgproxy's
    /// `IMGPROXY_URL_REPLACEMENTS`).
    public var urlReplacements: [URLReplacement] = []
    /// Whether a base64 source's last segment is a file name, not part of the URL, when it has
    /// more than one (imgproxy's `IMGPROXY_BASE64_URL_INCLUDES_FILENAME`):
    /// `/…/aHR0cDov….png/puppy.jpg`.
    public var base64URLIncludesFilename = false
    /// What separates an option's name and arguments (imgproxy's `IMGPROXY_ARGUMENTS_SEPARATOR`).
    public var argumentsSeparator: Character = ":"
    /// Whether the one segment before the source lists preset names and nothing else
    /// (imgproxy's `IMGPROXY_ONLY_PRESETS`): `/{signature}/thumb:sharp/plain/…`.
    public var onlyPresets = false
    /// Whether URLs may use imgproxy's security options, which change the server's limits
    /// (imgproxy's `IMGPROXY_ALLOW_SECURITY_OPTIONS`); otherwise they are refused with 403.
    public var allowSecurityOptions = false
    /// Whether URLs may use imgproxy's `bypass_cache` (imgproxy's `IMGPROXY_ALLOW_BYPASS_CACHE`);
    /// otherwise a URL (or preset) turning it on is refused with 403.
    public var allowBypassCache = false
    /// The options every URL starts from, before the `default` preset and its own: the
    /// server's settings that are options too, such as `--skip-processing-formats`.
    public var defaults = ProcessingOptions()
    /// The options a URL may use, by any of their names (imgproxy's
    /// `IMGPROXY_ALLOWED_PROCESSING_OPTIONS`; `w` allows `width` too); empty allows all.
    /// Presets' own options are not checked. (Read into options when set, in an initializer
    /// too, where a `didSet` would not run.)
    public var allowedOptions: [String] {
        get { allowedProcessing.spellings }
        set { allowedProcessing = AllowedOptions(newValue) }
    }
    private var allowedProcessing = AllowedOptions<ProcessingOptions>()
    /// The presets an `/info` URL's `preset` may name (imgproxy's `IMGPROXY_INFO_PRESETS`;
    /// see ``ProcessingPresets/info(definitions:separator:)``); `default` applies to every info URL.
    public var infoPresets = ProcessingPresets()
    /// Whether the one segment before an `/info` URL's source lists info presets and nothing
    /// else (imgproxy's `IMGPROXY_INFO_ONLY_PRESETS`).
    public var infoOnlyPresets = false
    /// The options an `/info` URL may use, by any of their names (imgproxy's
    /// `IMGPROXY_ALLOWED_INFO_OPTIONS`); empty allows all. Presets' own options are not checked.
    public var allowedInfoOptions: [String] {
        get { allowedInfo.spellings }
        set { allowedInfo = AllowedOptions(newValue) }
    }
    private(set) var allowedInfo = AllowedOptions<InfoURLOptions>()

    /// A parser with `presets` and `limits`.
    public init(presets: ProcessingPresets = ProcessingPresets(), limits: ProcessingURLLimits = ProcessingURLLimits()) {
        self.presets = presets
        self.limits = limits
    }

    /// The URL `path` (the request target without the host; a query is ignored) describes,
    /// starting from ``defaults`` with the browser's `clientHints` laid over them.
    public func parse(_ path: String, clientHints: ClientHints? = nil) throws(ProcessingURLError) -> ProcessingURL {
        let signed = try SignedPath(path, limits: limits, firstSegment: "signature segment")
        let segments = signed.path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)

        var options = clientHints.map { $0.applied(to: defaults) } ?? defaults
        let reader = OptionReader<ProcessingOptions>(presets: presets, limits: limits, separator: argumentsSeparator,
                                                     allowsSecurityOptions: allowSecurityOptions, allowedNames: allowedProcessing.names)
        let index = try readOptions(segments, into: &options, reader: reader, onlyPresets: onlyPresets)
        options.pipelineCursor = 0
        if options.bypassesCache, !allowBypassCache { throw .securityOptionNotAllowed(ProcessingOptionName.bypassCache.rawValue) }
        let (source, fileExtension) = try source(in: segments[index...])
        // With `raw`, imgproxy ignores the extension; so does this parser.
        if let fileExtension, !options.raw {
            try options.setFormat(named: fileExtension)
        }
        if options.format == nil, options.bestFormatSettings.byDefault { options.bestFormat = true }
        return ProcessingURL(signature: String(signed.signature), signedPath: String(signed.path), options: options, source: source)
    }

    /// Reads the option segments at the start of `segments` into `options` with `reader`: the
    /// `default` preset first, then the URL's options (or, `onlyPresets`, the one segment of
    /// preset names); the index of the first source segment, which must exist.
    func readOptions<Options: URLOptionVocabulary>(_ segments: [Substring], into options: inout Options,
                                                   reader: OptionReader<Options>, onlyPresets: Bool) throws(ProcessingURLError) -> Int {
        var expansion = OptionReader<Options>.Expansion()
        if reader.presets.options["default"] != nil {
            try reader.expandPreset("default", into: &options, expansion: &expansion, depth: 0)
        }
        var index = 0
        if onlyPresets {
            guard segments.count > 1 else { throw .missingPart("source URL") }
            for name in segments[0].split(separator: argumentsSeparator) {
                try reader.expandPreset(String(name), into: &options, expansion: &expansion, depth: 1)
            }
            index = 1
        }
        while !onlyPresets, index < segments.count, let option = option(segments[index]) {
            try reader.apply(option, into: &options, expansion: &expansion, depth: 0)
            index += 1
        }
        guard index < segments.count else { throw .missingPart("source URL") }
        return index
    }

    /// The source URL the segments from the source on name (`plain/…`, base64, or `enc/…`,
    /// which is refused), with the extension written after it.
    func source(in segments: ArraySlice<Substring>) throws(ProcessingURLError) -> (URL, Substring?) {
        let index = segments.startIndex
        switch segments[index] {
        case "plain":
            return try plainSource(segments[(index + 1)...].joined(separator: "/"))
        case "enc":
            throw .invalidSource("encrypted source URLs are not supported")
        default:
            let named = base64URLIncludesFilename && segments.count > 1
            return try encodedSource(segments[index..<(segments.endIndex - (named ? 1 : 0))].joined())
        }
    }

    /// `segment` as an option (`name:arg:arg`, or `-`, which starts a chained pipeline), its
    /// separators possibly escaped as `%3A` (as imgproxy reads them), or nil when it is not one
    /// (no separator: the source begins).
    private func option(_ segment: Substring) -> Substring? {
        if segment.contains(argumentsSeparator) || segment == "-" { return segment }
        guard argumentsSeparator == ":", segment.range(of: "%3A", options: .caseInsensitive) != nil else { return nil }
        return Substring(segment.replacingOccurrences(of: "%3A", with: ":", options: .caseInsensitive))
    }

    /// `http%3A%2F%2Fexample.com%2Fa.jpg@png`: the percent-decoded URL and the extension after
    /// the last `@` (when what follows it has no `/`).
    private func plainSource(_ text: String) throws(ProcessingURLError) -> (URL, Substring?) {
        var body = Substring(text), fileExtension: Substring?
        if let at = body.lastIndex(of: "@"), !body[at...].contains("/") {
            fileExtension = body[body.index(after: at)...]
            body = body[..<at]
        }
        guard let decoded = String(body).removingPercentEncoding else {
            throw .invalidSource("bad percent-encoding")
        }
        return (try SourceURL.parse(sourceText(SourceURL.restoringDoubleSlash(decoded))), fileExtension.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// `aHR0cDovL2V4YW1w…anBn.png` (segments already joined): the URL the URL-safe base64
    /// encodes and the extension after the last `.`.
    private func encodedSource(_ text: String) throws(ProcessingURLError) -> (URL, Substring?) {
        var body = Substring(text), fileExtension: Substring?
        if let dot = body.lastIndex(of: ".") {
            fileExtension = body[body.index(after: dot)...]
            body = body[..<dot]
        }
        guard let bytes = URLSafeBase64.decode(body) else { throw .invalidSource("not URL-safe base64") }
        guard let decoded = String(validating: bytes, as: UTF8.self) else { throw .invalidSource("not UTF-8") }
        return (try SourceURL.parse(sourceText(decoded)), fileExtension.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// The source URL a URL's `decoded` source text names: the replacements applied, then the
    /// base URL put before it unless it starts with it already, as imgproxy does.
    private func sourceText(_ decoded: String) -> String {
        let replaced = urlReplacements.reduce(decoded) { $1.apply(to: $0) }
        return baseURL.isEmpty || replaced.hasPrefix(baseURL) ? replaced : baseURL + replaced
    }
}
