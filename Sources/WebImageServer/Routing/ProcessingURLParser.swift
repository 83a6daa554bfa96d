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
    /// The options every URL starts from, before the `default` preset and its own: the
    /// server's settings that are options too, such as `--skip-processing-formats`.
    public var defaults = ProcessingOptions()
    /// The options a URL may use, by any of their names (imgproxy's
    /// `IMGPROXY_ALLOWED_PROCESSING_OPTIONS`; `w` allows `width` too); empty allows all.
    /// Presets' own options are not checked.
    public var allowedOptions: [String] = [] {
        didSet { allowedNames = allowedOptions.isEmpty ? nil : Set(allowedOptions.compactMap { ProcessingOptionName(spelling: Substring($0)) }) }
    }
    /// ``allowedOptions`` as options.
    private var allowedNames: Set<ProcessingOptionName>?

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
        var expansion = Expansion()
        if presets.options["default"] != nil {
            try expandPreset("default", into: &options, expansion: &expansion, depth: 0)
        }
        var index = 0
        if onlyPresets {
            guard segments.count > 1 else { throw .missingPart("source URL") }
            for name in segments[0].split(separator: argumentsSeparator) {
                try expandPreset(String(name), into: &options, expansion: &expansion, depth: 1)
            }
            index = 1
        }
        while !onlyPresets, index < segments.count, let option = option(segments[index]) {
            try apply(option, into: &options, expansion: &expansion, depth: 0)
            index += 1
        }
        guard index < segments.count else { throw .missingPart("source URL") }

        let (source, fileExtension): (URL, Substring?)
        switch segments[index] {
        case "plain":
            (source, fileExtension) = try plainSource(segments[(index + 1)...].joined(separator: "/"))
        case "enc":
            throw .invalidSource("encrypted source URLs are not supported")
        default:
            let named = base64URLIncludesFilename && segments.count - index > 1
            (source, fileExtension) = try encodedSource(segments[index..<(segments.count - (named ? 1 : 0))].joined())
        }
        // With `raw`, imgproxy ignores the extension; so does this parser.
        if let fileExtension, !options.raw {
            options.format = try ProcessingOptions.format(named: fileExtension)
        }
        return ProcessingURL(signature: String(signed.signature), signedPath: String(signed.path), options: options, source: source)
    }

    /// `segment` as an option (`name:arg:arg`), its separators possibly escaped as `%3A` (as
    /// imgproxy reads them), or nil when it is not one (no separator: the source begins).
    private func option(_ segment: Substring) -> Substring? {
        if segment.contains(argumentsSeparator) { return segment }
        guard argumentsSeparator == ":", segment.range(of: "%3A", options: .caseInsensitive) != nil else { return nil }
        return Substring(segment.replacingOccurrences(of: "%3A", with: ":", options: .caseInsensitive))
    }

    /// What reading one URL's options has done so far: the options applied, presets' included,
    /// and the presets expanded.
    private struct Expansion {
        var applied = 0
        var usedPresets: Set<String> = []
    }

    /// Applies the option written as `segment` (`name:arg:arg`), expanding a preset in place.
    private func apply(_ segment: Substring, into options: inout ProcessingOptions,
                       expansion: inout Expansion, depth: Int) throws(ProcessingURLError) {
        expansion.applied += 1
        guard expansion.applied <= limits.maxOptions else { throw .tooManyOptions(limit: limits.maxOptions) }
        let parts = segment.split(separator: argumentsSeparator, maxSplits: limits.maxArguments + 1, omittingEmptySubsequences: false)
        guard let name = ProcessingOptionName(spelling: parts[0]) else {
            throw .unknownOption(ProcessingURLError.quoting(parts[0]))
        }
        if name.isSecurityOption, !allowSecurityOptions { throw .securityOptionNotAllowed(name.rawValue) }
        // The URL's own options only: what a preset holds, its administrator wrote.
        if depth == 0, let allowedNames, !allowedNames.contains(name) {
            throw .forbiddenOption(ProcessingURLError.quoting(parts[0]))
        }
        guard parts.count <= limits.maxArguments + 1 else {
            throw .invalidArgument(option: name.rawValue, reason: "more than \(limits.maxArguments) arguments")
        }
        let arguments = OptionArguments(option: name.rawValue, values: Array(parts.dropFirst()))
        guard name == .preset else {
            try options.apply(name, arguments, limits: limits)
            return
        }
        try arguments.expectCount(1, limits.maxArguments)
        for preset in arguments.values {
            try expandPreset(String(preset), into: &options, expansion: &expansion, depth: depth + 1)
        }
    }

    /// Applies the options of the preset `name`, unless the URL has used it already: presets
    /// that name each other (`a=…/preset:b`, `b=…/preset:a`) apply once each, as imgproxy
    /// applies them, and so does a preset named twice.
    private func expandPreset(_ name: String, into options: inout ProcessingOptions,
                              expansion: inout Expansion, depth: Int) throws(ProcessingURLError) {
        guard let list = presets.options[name] else { throw .unknownPreset(ProcessingURLError.quoting(name)) }
        guard expansion.usedPresets.insert(name).inserted else { return }
        guard depth < limits.maxPresetDepth else { throw .presetTooDeep(ProcessingURLError.quoting(name)) }
        for segment in list {
            try apply(Substring(segment), into: &options, expansion: &expansion, depth: depth + 1)
        }
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
