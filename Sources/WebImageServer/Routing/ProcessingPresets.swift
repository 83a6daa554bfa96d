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
    /// `--preset` take them; throws for a definition without a name or options. The options
    /// themselves are checked when a URL uses the preset.
    public init(definitions: [String]) throws(ProcessingURLError) {
        options = [:]
        for definition in definitions {
            let parts = definition.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = parts[0].trimmingCharacters(in: .whitespaces)
            let list = parts.count == 2 ? parts[1].split(separator: "/").map(String.init) : []
            guard !name.isEmpty, !name.contains(":"), !name.contains("/"), !list.isEmpty else {
                throw .invalidArgument(option: "preset", reason: "\"\(ProcessingURLError.quoting(definition))\" is not name=option/option")
            }
            options[name] = list
        }
    }
}
