extension ServerConfiguration {
    /// Refuses the variables of `environment` that imgproxy reads, this server has no setting
    /// for, and that would change answers or what is allowed when ignored, unless they hold
    /// imgproxy's default (``ForeignVariable/Handling/refused(default:)``); the first, by name,
    /// is the error.
    static func refuseForeignVariables(in environment: [String: String]) throws(ConfigurationError) {
        for variable in foreignVariables {
            guard case .refused(let defaultText) = variable.handling, let text = environment[variable.name],
                  !text.trimmingCharacters(in: .whitespaces).isEmpty,
                  !variable.isDefault(text) else { continue }
            let shown = defaultText.isEmpty ? "unset" : defaultText
            throw ConfigurationError(source: variable.name,
                                     reason: "is not supported here (\(variable.reason)); leave it \(shown), imgproxy's default")
        }
    }

    /// The warnings `webimage serve` gives at start for `environment`: each variable imgproxy
    /// reads that is set and ignored here, with why, and each `IMGPROXY_` name imgproxy does not
    /// read at all (a typo, or a setting of another version), with the closest name it does.
    public static func warnings(for environment: [String: String]) -> [String] {
        let ignored = Dictionary(uniqueKeysWithValues: foreignVariables.compactMap { variable in
            variable.handling == .ignored ? (variable.name, variable.reason) : nil
        })
        var warnings: [String] = []
        for name in environment.keys.sorted() where name.hasPrefix("IMGPROXY_") && environment[name]?.isEmpty == false {
            if let reason = ignored[name] {
                warnings.append("\(name) is ignored here: \(reason)")
            } else if !knownImgproxyVariables.contains(name) {
                let closest = knownImgproxyVariables.min { distance(name, $0) < distance(name, $1) }
                let hint = closest.map { distance(name, $0) <= 3 ? "; did you mean \($0)?" : "" } ?? ""
                warnings.append("\(name) is no variable imgproxy reads\(hint)")
            }
        }
        return warnings
    }

    /// Every `IMGPROXY_` variable imgproxy reads: the settings' and the foreign ones.
    static let knownImgproxyVariables: Set<String> = Set(settings.compactMap(\.variable).filter { $0.hasPrefix("IMGPROXY_") })
        .union(foreignVariables.map(\.name))

    /// The edit distance of `a` and `b` (insertions, deletions and substitutions of bytes).
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.utf8), b = Array(b.utf8)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
