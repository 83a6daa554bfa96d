/// The options a setting allows URLs to use (imgproxy's `IMGPROXY_ALLOWED_PROCESSING_OPTIONS`
/// and `IMGPROXY_ALLOWED_INFO_OPTIONS`): the names as written, and the options they name, read
/// once; no names allow every option.
struct AllowedOptions<Options: URLOptionVocabulary> {
    /// The names as the setting wrote them (any spelling of each option).
    let spellings: [String]
    /// The options named, or nil when every option is allowed.
    let names: Set<Options.Name>?

    /// The options `spellings` name; names of no option allow nothing more.
    init(_ spellings: [String] = []) {
        self.spellings = spellings
        names = spellings.isEmpty ? nil : Set(spellings.compactMap { Options.name(spelling: Substring($0)) })
    }
}

extension AllowedOptions: Sendable where Options.Name: Sendable {}
