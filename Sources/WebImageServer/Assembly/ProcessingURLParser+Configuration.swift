extension ProcessingURLParser {
    /// The parser of imgproxy URLs `urls` describes: its presets, separator, source URL
    /// rewriting, allowed options and presets-only form, for processing and `/info` URLs; the defaults URLs start from taken from
    /// `output` (orientation, colour profile and copyright tags, per-format quality,
    /// formats answered unprocessed) and `limits` (the longest side); the security options
    /// accepted when `limits` allows them. Throws the first preset that does not parse.
    public init(_ urls: ServerConfiguration.URLSettings, output: ServerConfiguration.OutputSettings,
                limits: ServerConfiguration.LimitSettings) throws(ProcessingURLError) {
        self.init(presets: try ProcessingPresets(definitions: urls.presets + urls.presetsFromFile, separator: urls.argumentsSeparator))
        baseURL = urls.baseURL
        urlReplacements = urls.urlReplacements.compactMap { URLReplacement(setting: Substring($0)) }
        base64URLIncludesFilename = urls.base64URLIncludesFilename
        allowSecurityOptions = limits.allowSecurityOptions
        argumentsSeparator = urls.argumentsSeparator
        onlyPresets = urls.onlyPresets
        allowedOptions = urls.allowedProcessingOptions
        infoPresets = try ProcessingPresets.info(definitions: urls.infoPresets + urls.infoPresetsFromFile, separator: urls.argumentsSeparator)
        infoOnlyPresets = urls.infoOnlyPresets ?? urls.onlyPresets
        allowedInfoOptions = urls.allowedInfoOptions
        defaults.keepCopyright = output.keepCopyright
        defaults.stripMetadata = output.stripMetadata
        defaults.shrinksOnLoad = !output.disableShrinkOnLoad
        defaults.linearLight = output.useLinearColorspace
        defaults.enforceThumbnail = output.enforceThumbnail
        defaults.autoRotate = output.autoRotate
        defaults.progressiveJPEG = output.jpegProgressive
        defaults.interlacedPNG = output.pngInterlaced
        defaults.pngPaletteColors = output.pngQuantize ? output.pngQuantizationColors : nil
        defaults.preferredFormats = output.preferredFormats
        defaults.stripColorProfile = output.stripColorProfile
        defaults.formatQuality = output.formatQuality
        defaults.maxResultDimension = limits.maxResultDimension
        defaults.skipProcessing = Set(output.skipProcessingFormats)
        defaults.unsharpMasking = output.unsharpMasking
        defaults.pngQuantizationColors = output.pngQuantizationColors
        defaults.encoding = output.encoding
        defaults.autoquality = output.autoquality
        defaults.bestFormatSettings = output.bestFormat
        allowBypassCache = urls.allowBypassCache
    }
}
