/// Why a request path is not a valid imgproxy or thumbor URL. Each case says what was wrong in one line,
/// quoting at most a short, sanitised piece of the input; a server answers them with 400, but
/// ``securityOptionNotAllowed(_:)`` with 403 and ``unwritableFormat(_:)`` with 422.
public enum ProcessingURLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path is longer than ``ProcessingURLLimits/maxPathLength`` bytes.
    case pathTooLong(length: Int, limit: Int)
    /// The path has no signature segment, or no source after the options.
    case missingPart(String)
    /// More options than ``ProcessingURLLimits/maxOptions``, presets expanded.
    case tooManyOptions(limit: Int)
    /// An option name imgproxy does not have (or this server does not implement).
    case unknownOption(String)
    /// An option the server's `--allowed-processing-options` leave out.
    case forbiddenOption(String)
    /// One of imgproxy's security options (`max_src_resolution`, `max_result_dimension`…) on
    /// a server that does not allow them (`--allow-security-options`): 403, as imgproxy answers.
    case securityOptionNotAllowed(String)
    /// An option's arguments are missing, too many, or out of range.
    case invalidArgument(option: String, reason: String)
    /// `preset` names a preset that is not configured.
    case unknownPreset(String)
    /// Presets nest deeper than the limit (presets naming each other in a loop apply once each).
    case presetTooDeep(String)
    /// The requested format is not one this server can write.
    case unsupportedFormat(String)
    /// The requested format is an image format this server does not write (`bmp`, `ico`):
    /// 422, as imgproxy answers a result format it cannot save.
    case unwritableFormat(String)
    /// The source part is not a valid URL (bad percent-encoding or base64, no scheme, not UTF-8).
    case invalidSource(String)
    /// A thumbor filter this server does not apply. thumbor skips such filters silently; this
    /// server refuses them rather than answer with an image other than the one asked for.
    case unsupportedFilter(String)
    /// A part of a thumbor URL this server does not implement (`meta`, `debug`, `trim:bottom-right`).
    case unsupportedPart(String)

    /// One line saying what was wrong.
    public var description: String {
        switch self {
        case let .pathTooLong(length, limit): "path is \(length) bytes, over the limit of \(limit)"
        case let .missingPart(part): "URL has no \(part)"
        case let .tooManyOptions(limit): "more than \(limit) processing options"
        case let .unknownOption(name): "unknown processing option \"\(name)\""
        case let .forbiddenOption(name): "option \"\(name)\" is not allowed here"
        case let .securityOptionNotAllowed(name): "security option \"\(name)\" is not allowed here"
        case let .invalidArgument(option, reason): "invalid \(option) option: \(reason)"
        case let .unknownPreset(name): "unknown preset \"\(name)\""
        case let .presetTooDeep(name): "preset \"\(name)\" nests too deeply"
        case let .unsupportedFormat(name): "unsupported output format \"\(name)\""
        case let .unwritableFormat(name): "results cannot be written as \"\(name)\""
        case let .invalidSource(reason): "invalid source URL: \(reason)"
        case let .unsupportedFilter(name): "unsupported filter \"\(name)\""
        case let .unsupportedPart(part): "unsupported URL part \"\(part)\""
        }
    }

    /// `text` cut to 40 characters with anything outside printable ASCII replaced, so that an
    /// error message never echoes control characters or a whole hostile path.
    static func quoting(_ text: some StringProtocol) -> String {
        let printable = text.unicodeScalars.prefix(40).map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" }
        return String(printable) + (text.unicodeScalars.count > 40 ? "…" : "")
    }
}
