extension ServerConfiguration {
    /// The defaults with the settings `environment` gives laid over them, then the flags of
    /// `arguments` over those (a flag wins over its variable), each read as its entry in
    /// ``settings`` says: `--NAME VALUE` or `--NAME=VALUE`, a switch as `--NAME`, a list's flag
    /// repeated; a value starting with `-` only as `--NAME=VALUE`, as ArgumentParser reads
    /// options. Throws ``ConfigurationError`` naming the first variable or flag that is wrong,
    /// with ``ConfigurationError/isUsage`` when the command line's shape is (a flag that is no
    /// setting, a value missing, a switch given one, a word that is no flag).
    /// A `thumbor.conf` named by `--thumbor-config` or its variable is read first (see ``ConfigurationReading``).
    public init(environment: [String: String], arguments: [String]) throws(ConfigurationError) {
        self = try ConfigurationReading(environment: environment, arguments: arguments).configuration
    }

    /// Throws ``ConfigurationError`` (with ``ConfigurationError/isUsage``) when `arguments` is
    /// not a command line of settings — a flag that is no setting, a value missing, a switch
    /// given one, a word that is no flag — without reading any value.
    public static func checkShape(of arguments: [String]) throws(ConfigurationError) {
        _ = try flags(in: arguments)
    }

    /// The flags `arguments` gives, in the order of ``settings``: a repeated list's values
    /// joined as its variable spells them, a switch as `true`, a later value of any other
    /// setting replacing an earlier one.
    static func flags(in arguments: [String]) throws(ConfigurationError) -> [(flag: String, text: String)] {
        var given: [String: String] = [:]
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            guard argument.hasPrefix("--"), argument.count > 2 else {
                throw ConfigurationError(source: argument, reason: "is not a flag (--NAME)", isUsage: true)
            }
            let named = argument.dropFirst(2)
            let name = String(named.prefix { $0 != "=" })
            let attached = named.firstIndex(of: "=").map { String(named[named.index(after: $0)...]) }
            guard let setting = settings.first(where: { $0.flag == name }) else {
                throw ConfigurationError(source: "--\(name)", reason: "is not a setting", isUsage: true)
            }
            let text: String
            if setting.isSwitch {
                guard attached == nil else { throw ConfigurationError(source: "--\(name)", reason: "takes no value", isUsage: true) }
                text = "true"
            } else if let attached {
                text = attached
            } else if let next = remaining.first, !next.hasPrefix("-") {
                remaining.removeFirst()
                text = next
            } else {
                throw ConfigurationError(source: "--\(name)", reason: "needs a value (\(setting.valueName ?? "VALUE"))", isUsage: true)
            }
            if let separator = setting.separator, let earlier = given[name] {
                given[name] = earlier + separator + text
            } else {
                given[name] = text
            }
        }
        return settings.compactMap { setting in given[setting.flag].map { (setting.flag, $0) } }
    }

    /// This configuration with `local:///` sources read from `folder` when it names no folder of
    /// its own and listens on loopback (only this machine can ask), as `webimage serve` serves
    /// the folder it is started in.
    public func servingLocalSources(from folder: String) -> ServerConfiguration {
        guard sources.localRoot == nil, listening.listensOnLoopback else { return self }
        var configuration = self
        configuration.sources.localRoot = folder
        return configuration
    }
}
