extension ProcessingURLParser {
    /// The parser of imgproxy URLs `urls` describes: its presets, separator, source URL
    /// rewriting, allowed options and presets-only form; the defaults URLs start from taken from
    /// `output` (copyright tags, formats answered unprocessed); the security options accepted
    /// when `allowsSecurityOptions`. Throws the first preset that does not parse.
    public init(_ urls: ServerConfiguration.URLSettings, output: ServerConfiguration.OutputSettings,
                allowsSecurityOptions: Bool) throws(ProcessingURLError) {
        self.init(presets: try ProcessingPresets(definitions: urls.presets, separator: urls.argumentsSeparator))
        baseURL = urls.baseURL
        urlReplacements = urls.urlReplacements.compactMap { URLReplacement(setting: Substring($0)) }
        base64URLIncludesFilename = urls.base64URLIncludesFilename
        allowSecurityOptions = allowsSecurityOptions
        argumentsSeparator = urls.argumentsSeparator
        onlyPresets = urls.onlyPresets
        allowedOptions = urls.allowedProcessingOptions
        defaults.keepCopyright = output.keepCopyright
        defaults.skipProcessing = Set(output.skipProcessingFormats)
    }
}
