/// One set of options a URL's `name:arg:arg` segments are read into: imgproxy's processing
/// options (``ProcessingOptions``) or its info options (``InfoOptions``). ``OptionReader`` reads
/// segments, presets and limits the same way for each.
protocol URLOptionVocabulary {
    /// The options' names.
    associatedtype Name: RawRepresentable<String> & Hashable

    /// The option called `spelling`, long or short; nil for any other.
    static func name(spelling: Substring) -> Name?
    /// The option that names presets (`preset`, `pr`).
    static var presetName: Name { get }
    /// Whether `name` is one of imgproxy's security options, read only when the server allows them.
    static func isSecurityOption(_ name: Name) -> Bool
    /// Applies the option `name` (not the preset option) with its `arguments`, checked against `limits`.
    mutating func apply(_ name: Name, _ arguments: OptionArguments, limits: ProcessingURLLimits) throws(ProcessingURLError)
}

extension ProcessingOptions: URLOptionVocabulary {
    static func name(spelling: Substring) -> ProcessingOptionName? { ProcessingOptionName(spelling: spelling) }
    static var presetName: ProcessingOptionName { .preset }
    static func isSecurityOption(_ name: ProcessingOptionName) -> Bool { name.isSecurityOption }
}
