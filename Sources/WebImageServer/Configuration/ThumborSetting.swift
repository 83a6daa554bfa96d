/// One of the settings thumbor reads from its `thumbor.conf`, and what `webimage serve
/// --thumbor-config` does when the file assigns it: nothing a file sets is dropped without a word.
public struct ThumborSetting: Sendable {
    /// What the setting leads to.
    public enum Handling: Sendable, Equatable {
        /// It is read into the setting of ``ServerConfiguration/settings`` whose flag this is.
        case setting(flag: String)
        /// A start-up warning: it changes nothing an answer or its safety depends on here.
        case ignored
        /// A start-up error unless it holds what `default` (Python's spelling) says: another value
        /// would change answers or what is allowed.
        case refused(default: String)
    }

    /// Another setting this one is read with only, as thumbor reads it (`FILE_LOADER_ROOT_PATH`
    /// only with a file `LOADER`): when the value of it (the file's, or the environment's or a
    /// flag's over it) is not one the requirement takes, this setting is named in a warning and
    /// changes nothing.
    public struct Requirement: Sendable {
        /// The other setting's name.
        public let name: String
        /// The values it must hold, in a few words (`naming a file loader`).
        public let described: String
        /// Whether the other setting's value in the file (nil when it is not assigned) is one.
        let isMet: @Sendable (PythonLiteral?) -> Bool
    }

    /// The name thumbor gives it (`QUALITY`).
    public let name: String
    /// What it leads to.
    public let handling: Handling
    /// For a setting, what it does here when it differs from the flag's own words, else empty;
    /// for the others, why (a few words after the name).
    public let reason: String
    /// The setting this one is read with only, if any.
    public let requirement: Requirement?
    /// The flag's text for an assigned value, nil to leave the flag as it is; throws the reason
    /// a value is not taken. Read only for ``Handling/setting(flag:)``.
    let text: @Sendable (PythonLiteral) throws(SettingValueError) -> String?
    /// Whether a refused setting's value is one taken all the same (thumbor's default, or one
    /// that means the same here). Read only for ``Handling/refused(default:)``.
    let accepts: @Sendable (PythonLiteral) -> Bool

    /// The setting's row in the table of thumbor's settings in WebImageServer.docc/Configuration.md:
    /// name, what is done, why.
    public var markdownRow: String {
        let handled = switch handling {
        case .setting(let flag): "`--\(flag)`"
        case .ignored: "ignored, with a warning"
        case .refused(let defaultText): "refused unless `\(defaultText)`"
        }
        let why = requirement.map { [reason, "only with \($0.name) \($0.described), as thumbor reads it"].filter { !$0.isEmpty }.joined(separator: "; ") }
            ?? reason
        return "| `\(name)` | \(handled) | \(why.replacingOccurrences(of: "|", with: "\\|")) |"
    }
}
