/// A configuration read from its layers, each over the one before: the defaults, a
/// `thumbor.conf` (`--thumbor-config`), the environment, the flags; with where each setting's
/// text came from and the warnings reading gave. `webimage serve` reads its configuration
/// once, here, and prints the warnings and (with `--print-config`) the effective settings.
public struct ConfigurationReading: Sendable {
    /// The configuration read.
    public let configuration: ServerConfiguration
    /// Every setting as it was read, in the order of ``ServerConfiguration/settings``, keys and
    /// passwords masked: what `serve --print-config` prints.
    public let effectiveSettings: [ServerConfiguration.EffectiveSetting]
    /// What was set and is not read here, each a sentence naming where it was set: imgproxy's
    /// variables ignored here and `IMGPROXY_` names imgproxy does not read; thumbor's settings
    /// ignored here and names thumbor does not read.
    public let warnings: [String]

    /// Reads `environment` and `arguments` (the command line's settings, as
    /// ``ServerConfiguration/init(environment:arguments:)`` describes them), the
    /// `thumbor.conf` either names, and the `.env` file either names, whose variables replace
    /// the environment's, as imgproxy sets them (`IMGPROXY_ENV_LOCAL_FILE_PATH`); throws
    /// ``ConfigurationError`` naming the first variable, flag or line of a file that is wrong.
    public init(environment: [String: String], arguments: [String]) throws(ConfigurationError) {
        let flags = try ServerConfiguration.flags(in: arguments)
        var environment = environment
        if let file = flags.last(where: { $0.flag == ServerConfiguration.environmentFileFlag })?.text
            ?? environment[ServerConfiguration.environmentFileVariable].flatMap({ $0.isEmpty ? nil : $0 }) {
            environment.merge(try EnvironmentFile(path: file).variables) { _, fromFile in fromFile }
        }
        var configuration = ServerConfiguration()
        var origins: [String: (text: String, origin: ServerConfiguration.EffectiveSetting.Origin)] = [:]
        var warnings: [String] = []
        let thumborConfig = flags.last { $0.flag == ServerConfiguration.thumborConfigFlag }?.text
            ?? environment[ServerConfiguration.thumborConfigVariable].flatMap { $0.isEmpty ? nil : $0 }
        if let thumborConfig {
            let file = try ThumborConfigFile(path: thumborConfig)
            // The loader the environment or a flag chooses decides whether the file's root is read.
            let loader = flags.last { $0.flag == "thumbor-loader" }?.text ?? environment["THUMBOR_LOADER"].flatMap { $0.isEmpty ? nil : $0 }
            let (texts, fileWarnings) = try ServerConfiguration.thumborTexts(of: file, laterValues: loader.map { ["LOADER": .string($0)] } ?? [:])
            warnings += fileWarnings
            for setting in ServerConfiguration.settings {
                guard let given = texts[setting.flag] else { continue }
                try setting.apply(given.text, to: &configuration, from: given.source)
                origins[setting.flag] = (given.text, .thumborConfig(given.source))
            }
        }
        try ServerConfiguration.refuseForeignVariables(in: environment)
        for setting in ServerConfiguration.settings {
            guard let variable = setting.variable, let text = environment[variable], !text.isEmpty || setting.emptyIsAValue else { continue }
            try setting.apply(text, to: &configuration, from: variable)
            origins[setting.flag] = (text, .variable(variable))
        }
        for (flag, text) in flags {
            try configuration.set(flag: flag, to: text)
            origins[flag] = (text, .flag)
        }
        try configuration.listening.resolveNetwork()
        self.configuration = configuration
        self.warnings = warnings + ServerConfiguration.warnings(for: environment)
        effectiveSettings = ServerConfiguration.settings.map { setting in
            guard let given = origins[setting.flag] else {
                return ServerConfiguration.EffectiveSetting(flag: setting.flag, text: setting.defaultText, origin: .default)
            }
            return ServerConfiguration.EffectiveSetting(flag: setting.flag, text: setting.shown.showing(given.text), origin: given.origin)
        }
    }
}
