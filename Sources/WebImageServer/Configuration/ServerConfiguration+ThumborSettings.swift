extension ServerConfiguration {
    /// The flag and variable naming the `thumbor.conf` read under the environment and flags.
    static let thumborConfigFlag = "thumbor-config", thumborConfigVariable = "WEBIMAGE_THUMBOR_CONFIG"
    static let environmentFileFlag = "env-file", environmentFileVariable = "IMGPROXY_ENV_LOCAL_FILE_PATH"

    /// The flags `file`'s assignments give, by flag, each with its text and the assignment it
    /// came from (`PATH:LINE NAME`), and the warnings for the assignments ignored here; throws
    /// ``ConfigurationError`` for the first assignment refused or whose value its flag cannot
    /// take. A name assigned twice counts once, its last value, as Python reads the file, and
    /// one of thumbor's aliases (`MAX_SIZE`) as the setting it stands for; a setting thumbor
    /// reads only with another (``ThumborSetting/Requirement``) is warned about without it. The
    /// rules are followed in the order of ``thumborSettings``; two settings giving one list flag
    /// join their texts (`WEBP_QUALITY` and `AVIF_QUALITY` both give `--format-quality`). A
    /// requirement is judged by `laterValues` (what the environment or the flags give a setting
    /// of thumbor's, such as `LOADER` through `THUMBOR_LOADER`) before the file's own.
    static func thumborTexts(of file: ThumborConfigFile, laterValues: [String: PythonLiteral] = [:]) throws(ConfigurationError)
        -> (texts: [String: (text: String, source: String)], warnings: [String]) {
        var assigned: [String: ThumborConfigFile.Assignment] = [:]
        for assignment in file.assignments {
            assigned[thumborAliases[assignment.name] ?? assignment.name] = assignment
        }
        var texts: [String: (text: String, source: String)] = [:]
        var warnings: [String] = []
        for rule in thumborSettings {
            guard let assignment = assigned[rule.name] else { continue }
            let source = "\(file.path):\(assignment.line) \(assignment.name)"
            if let requirement = rule.requirement, !requirement.isMet(laterValues[requirement.name] ?? assigned[requirement.name]?.value) {
                warnings.append("\(source) is ignored here: thumbor reads it only with \(requirement.name) \(requirement.described)")
                continue
            }
            switch rule.handling {
            case .ignored:
                warnings.append("\(source) is ignored here: \(rule.reason)")
            case .refused(let defaultText):
                guard rule.accepts(assignment.value) else {
                    throw ConfigurationError(source: source, reason: "is not supported here (\(rule.reason)); leave it \(defaultText), thumbor's default")
                }
            case .setting(let flag):
                let text: String?
                do {
                    text = try rule.text(assignment.value)
                } catch {
                    throw ConfigurationError(source: source, reason: error.reason)
                }
                guard let text else { continue }
                if let earlier = texts[flag], let separator = settings.first(where: { $0.flag == flag })?.separator {
                    texts[flag] = (earlier.text + separator + text, earlier.source + ", " + assignment.name)
                } else {
                    texts[flag] = (text, source)
                }
            }
        }
        let known = Set(thumborSettings.map(\.name))
        for assignment in file.assignments where !known.contains(thumborAliases[assignment.name] ?? assignment.name) {
            let closest = thumborSettings.map(\.name).min { distance(assignment.name, $0) < distance(assignment.name, $1) }
            let hint = closest.map { distance(assignment.name, $0) <= 3 ? "; did you mean \($0)?" : "" } ?? ""
            warnings.append("\(file.path):\(assignment.line) \(assignment.name) is no setting thumbor reads\(hint)")
        }
        return (texts, warnings)
    }

    // MARK: The kinds of rule the table is written in

    /// A setting of thumbor's read into `flag`, its value as a setting's text (a list's items
    /// joined by commas) unless `text` reads it otherwise.
    static func thumbor(_ name: String, _ flag: String, _ reason: String = "", onlyWith requirement: ThumborSetting.Requirement? = nil,
                        text: @escaping @Sendable (PythonLiteral) throws(SettingValueError) -> String? = { value throws(SettingValueError) in
                            try value.settingText()
                        }) -> ThumborSetting {
        ThumborSetting(name: name, handling: .setting(flag: flag), reason: reason, requirement: requirement, text: text, accepts: { _ in true })
    }

    /// A setting of thumbor's that changes nothing an answer or its safety depends on here.
    static func ignoredThumbor(_ name: String, _ reason: String) -> ThumborSetting {
        ThumborSetting(name: name, handling: .ignored, reason: reason, requirement: nil, text: { _ in nil }, accepts: { _ in true })
    }

    /// A setting of thumbor's refused unless it holds `defaultValue`, or a value `accepts` takes.
    static func refusedThumbor(_ name: String, default defaultValue: PythonLiteral, _ reason: String,
                               accepts: (@Sendable (PythonLiteral) -> Bool)? = nil) -> ThumborSetting {
        ThumborSetting(name: name, handling: .refused(default: defaultValue.pythonText), reason: reason, requirement: nil, text: { _ in nil },
                       accepts: accepts ?? { $0.isPythonEqual(to: defaultValue) })
    }

    /// A quality of `format` for `--format-quality`, or nil for `None`.
    static func formatQuality(_ format: String) -> @Sendable (PythonLiteral) throws(SettingValueError) -> String? {
        { value throws(SettingValueError) in try value.settingText().map { "\(format)=\($0)" } }
    }

    /// Whether `value` is a list or tuple of strings, each a module `prefix` + one of `allowed`.
    static func namesModules(_ value: PythonLiteral, prefix: String, allowed: Set<String>) -> Bool {
        guard let items = value.items else { return false }
        return items.allSatisfy { item in
            guard case .string(let module) = item, module.hasPrefix(prefix) else { return false }
            return allowed.contains(String(module.dropFirst(prefix.count)))
        }
    }
}
