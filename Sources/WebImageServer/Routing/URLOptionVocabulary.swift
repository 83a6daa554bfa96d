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
    /// Whether `name` is allowed whatever the server's allowed options list (the pipeline
    /// separator, which is the URL's structure rather than an option).
    static func isAlwaysAllowed(_ name: Name) -> Bool
    /// Which pipeline of a chain the options read now go to, 0 for the first: a preset's own
    /// pipelines count from where it is used, and the URL's options after it go on there.
    var pipelineCursor: Int { get set }
}

extension URLOptionVocabulary {
    /// No option is always allowed.
    static func isAlwaysAllowed(_ name: Name) -> Bool { false }
    /// One pipeline only.
    var pipelineCursor: Int {
        get { 0 }
        set {}
    }
}

extension ProcessingOptions: URLOptionVocabulary {
    static func name(spelling: Substring) -> ProcessingOptionName? { ProcessingOptionName(spelling: spelling) }
    static var presetName: ProcessingOptionName { .preset }
    static func isSecurityOption(_ name: ProcessingOptionName) -> Bool { name.isSecurityOption }
    static func isAlwaysAllowed(_ name: ProcessingOptionName) -> Bool { name == .pipeline }
}
