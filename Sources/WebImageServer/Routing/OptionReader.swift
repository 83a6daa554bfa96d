/// Reads a URL's option segments (`name:arg:arg`) into a ``URLOptionVocabulary``, expanding
/// presets in place, with the checks imgproxy applies: the option count, the argument count,
/// the security options, the options a server allows.
struct OptionReader<Options: URLOptionVocabulary> {
    /// The presets `preset`/`pr` may name.
    let presets: ProcessingPresets
    /// The bounds on option count, arguments and preset depth.
    let limits: ProcessingURLLimits
    /// What separates an option's name and arguments.
    let separator: Character
    /// Whether the security options are read (otherwise 403).
    let allowsSecurityOptions: Bool
    /// The options a URL's own segments may use; nil allows all. Presets' options are not checked.
    let allowedNames: Set<Options.Name>?

    /// What reading one URL's options has done so far: the options applied, presets' included,
    /// and the presets expanded.
    struct Expansion {
        var applied = 0
        var usedPresets: Set<String> = []
    }

    /// Applies the option written as `segment` (`name:arg:arg`), expanding a preset in place;
    /// `depth` is 0 for the URL's own segments.
    func apply(_ segment: Substring, into options: inout Options, expansion: inout Expansion, depth: Int) throws(ProcessingURLError) {
        expansion.applied += 1
        guard expansion.applied <= limits.maxOptions else { throw .tooManyOptions(limit: limits.maxOptions) }
        let parts = segment.split(separator: separator, maxSplits: limits.maxArguments + 1, omittingEmptySubsequences: false)
        guard let name = Options.name(spelling: parts[0]) else {
            throw .unknownOption(ProcessingURLError.quoting(parts[0]))
        }
        if Options.isSecurityOption(name), !allowsSecurityOptions { throw .securityOptionNotAllowed(name.rawValue) }
        // The URL's own options only: what a preset holds, its administrator wrote.
        if depth == 0, let allowedNames, !allowedNames.contains(name), !Options.isAlwaysAllowed(name) {
            throw .forbiddenOption(ProcessingURLError.quoting(parts[0]))
        }
        guard parts.count <= limits.maxArguments + 1 else {
            throw .invalidArgument(option: name.rawValue, reason: "more than \(limits.maxArguments) arguments")
        }
        let arguments = OptionArguments(option: name.rawValue, values: Array(parts.dropFirst()))
        guard name == Options.presetName else {
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
    func expandPreset(_ name: String, into options: inout Options, expansion: inout Expansion, depth: Int) throws(ProcessingURLError) {
        guard let list = presets.options[name] else { throw .unknownPreset(ProcessingURLError.quoting(name)) }
        guard expansion.usedPresets.insert(name).inserted else { return }
        guard depth < limits.maxPresetDepth else { throw .presetTooDeep(ProcessingURLError.quoting(name)) }
        // A preset's chained pipelines follow the one it is used in; the URL goes on in that one.
        let cursor = options.pipelineCursor
        for segment in list {
            try apply(Substring(segment), into: &options, expansion: &expansion, depth: depth + 1)
        }
        options.pipelineCursor = cursor
    }
}
