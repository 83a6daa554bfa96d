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
            /// A `thumbor.conf`'s assignment: `PATH:LINE NAME`.
            case thumborConfig(String)
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
            case .thumborConfig(let assignment): assignment
            }
            return "--\(flag) \(text)  # \(source)"
        }
    }
}
