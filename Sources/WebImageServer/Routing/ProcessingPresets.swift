import Foundation

/// Named lists of options (imgproxy's presets): `thumb=rs:fill:100:100/q:80` lets a URL say
/// `pr:thumb`. A preset called `default` applies to every URL before its own options.
public struct ProcessingPresets: Sendable, Hashable {
    /// Each preset's options, as they would appear between slashes in a URL.
    public private(set) var options: [String: [String]]

    /// No presets.
    public init() {
        options = [:]
    }

    /// Presets from `name=option/option/…` definitions, as imgproxy's `IMGPROXY_PRESETS` and
    /// `--preset` take them, each option's name and arguments separated by `separator`. Blank
    /// definitions and those starting with `#` (comments) are skipped; a definition without a
    /// name or options, or with an option that is unknown or whose arguments are wrong, throws,
    /// as imgproxy refuses it at start. (A preset naming other presets is checked when used.)
    public init(definitions: [String], separator: Character = ":") throws(ProcessingURLError) {
        try self.init(definitions: definitions, separator: separator, checkedAs: ProcessingOptions())
    }

    /// Info presets (imgproxy's `IMGPROXY_INFO_PRESETS`), checked against the `/info` options
    /// as ``init(definitions:separator:)`` checks processing presets against the processing ones.
    public static func info(definitions: [String], separator: Character = ":") throws(ProcessingURLError) -> ProcessingPresets {
        try ProcessingPresets(definitions: definitions, separator: separator, checkedAs: InfoURLOptions(processing: ProcessingOptions()))
    }

    /// Presets whose options are checked by applying them to `scratch`, a set of `Options`.
    private init<Options: URLOptionVocabulary>(definitions: [String], separator: Character,
                                               checkedAs scratch: Options) throws(ProcessingURLError) {
        options = [:]
        for definition in definitions {
            let text = definition.trimmingCharacters(in: .whitespaces)
            if text.isEmpty || text.hasPrefix("#") { continue }
            let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = parts[0].trimmingCharacters(in: .whitespaces)
            let list = parts.count == 2 ? parts[1].split(separator: "/").map(String.init) : []
            guard !name.isEmpty, !name.contains(separator), !name.contains("/"), !list.isEmpty else {
                throw .invalidArgument(option: "preset", reason: "\"\(ProcessingURLError.quoting(definition))\" is not name=option/option")
            }
            var scratch = scratch
            for segment in list {
                let pieces = segment.split(separator: separator, omittingEmptySubsequences: false)
                guard let option = Options.name(spelling: pieces[0]) else {
                    throw .unknownOption(ProcessingURLError.quoting(pieces[0]))
                }
                guard option != Options.presetName else { continue }
                try scratch.apply(option, OptionArguments(option: option.rawValue, values: Array(pieces.dropFirst())),
                                  limits: ProcessingURLLimits())
            }
            options[name] = list
        }
    }
}
