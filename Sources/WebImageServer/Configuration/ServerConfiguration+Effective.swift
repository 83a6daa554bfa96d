extension ServerConfiguration {
    /// One setting as a configuration read it: its text, as it may be shown, and where it came from.
    public struct EffectiveSetting: Sendable, Equatable {
        /// Where a setting's text came from.
        public enum Origin: Sendable, Equatable {
            /// Nothing set it: the default.
            case `default`
            /// Its environment variable, named.
            case variable(String)
            /// Its flag on the command line.
            case flag
        }

        /// The setting's flag, without its dashes.
        public let flag: String
        /// Its text, as ``ServerSetting/shown`` allows (a key is `********`), or its default's words.
        public let text: String
        /// Where ``text`` came from.
        public let origin: Origin

        /// `--FLAG TEXT`, then where it came from after `#`: a line of `serve --print-config`.
        public var line: String {
            let source = switch origin {
            case .default: "default"
            case .variable(let name): "$\(name)"
            case .flag: "flag"
            }
            return "--\(flag) \(text)  # \(source)"
        }
    }

    /// Every setting as `environment` and `arguments` give it, in the order of ``settings``,
    /// after reading them as ``init(environment:arguments:)`` does (so a wrong value throws
    /// the same error): what `webimage serve --print-config` prints, keys and passwords masked.
    public static func effectiveSettings(environment: [String: String], arguments: [String])
        throws(ConfigurationError) -> [EffectiveSetting] {
        _ = try ServerConfiguration(environment: environment, arguments: arguments)
        let flags = Dictionary(try flags(in: arguments), uniquingKeysWith: { _, later in later })
        return settings.map { setting in
            if let text = flags[setting.flag] {
                return EffectiveSetting(flag: setting.flag, text: setting.shown.showing(text), origin: .flag)
            }
            if let variable = setting.variable, let text = environment[variable], !text.isEmpty {
                return EffectiveSetting(flag: setting.flag, text: setting.shown.showing(text), origin: .variable(variable))
            }
            return EffectiveSetting(flag: setting.flag, text: setting.defaultText, origin: .default)
        }
    }
}
