import Foundation

/// One setting of ``ServerConfiguration``: its flag, its environment variable, its
/// default and what it does, and how its text is read, the same from either place.
public struct ServerSetting: Sendable {
    /// The flag's name without its dashes (`quality` for `--quality`).
    public let flag: String
    /// The environment variable, or nil when the setting has none.
    public let variable: String?
    /// A value to show in the flag's help (`N`, `SECONDS`).
    public let valueName: String?
    /// What the setting does, one sentence.
    public let summary: String
    /// The default, as a user reads it.
    public let defaultText: String
    /// What joins the values of a flag given more than once into the one text the setting
    /// reads (`,` for a list, as its variable spells it); nil: a later flag replaces an earlier.
    public let separator: String?
    /// How much of the setting's text `serve --print-config` may show.
    public let shown: SettingVisibility
    /// Whether an empty variable is a value of its own rather than unset (imgproxy's
    /// `IMGPROXY_SOURCE_URL_QUERY_SEPARATOR`, whose emptiness means no separator).
    public var emptyIsAValue = false
    /// Reads `text` into a configuration; throws the reason (following the source in a sentence).
    let read: @Sendable (String, inout ServerConfiguration) throws(SettingValueError) -> Void

    /// Whether the setting is a flag without a value (`--auto-webp`), true when given.
    public var isSwitch: Bool { valueName == nil }

    /// Sets `configuration` from `text`, which `source` (a variable or a flag) gave.
    func apply(_ text: String, to configuration: inout ServerConfiguration, from source: String)
        throws(ConfigurationError) {
        do {
            try read(text, &configuration)
        } catch {
            throw ConfigurationError(source: source, reason: error.reason)
        }
    }

    /// The help `serve --help` shows: the summary, then the variable and the default.
    public var help: String {
        let variableText = variable.map { "$\($0) or " } ?? ""
        return "\(summary) (default: \(variableText)\(defaultText))."
    }

    /// The setting's row in the settings table of WebImageServer.docc/Configuration.md: flag, variable, default, summary (a `|` in a
    /// cell escaped, as GitHub's tables need even inside code).
    public var markdownRow: String {
        let flagText = "`--\(flag)" + (valueName.map { " \($0)" } ?? "") + "`"
        let cells = [flagText, variable.map { "`\($0)`" } ?? "—", defaultText, summary]
        return "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |"
    }
}

/// How much of a setting's text may be shown where others read it (`serve --print-config`).
public enum SettingVisibility: Sendable {
    /// All of it.
    case whole
    /// None: a key, a salt, a password.
    case masked
    /// All but the user and password of a URL (`redis://:PASSWORD@HOST`).
    case withoutURLCredentials

    /// `text` as it may be shown.
    public func showing(_ text: String) -> String {
        switch self {
        case .whole:
            return text
        case .masked:
            return "********"
        case .withoutURLCredentials:
            // The authority ends at the first /, ? or #; its user and password at its last @
            // (a password may hold an @ of its own).
            guard let scheme = text.range(of: "://") else { return text }
            let rest = text[scheme.upperBound...]
            let authority = rest[..<(rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex)]
            guard let at = authority.lastIndex(of: "@") else { return text }
            return text[..<scheme.upperBound] + "********" + text[at...]
        }
    }
}

/// Why a setting's text was not taken: the words that follow the setting's name.
struct SettingValueError: Error {
    let reason: String
}
