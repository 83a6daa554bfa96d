import Foundation

extension ProcessingURLParser {
    /// The `/info` URL `path` describes, the `/info` prefix removed:
    /// `/{signature}/{info option}/…/plain/{source}` or a base64 source, as imgproxy's
    /// `getting_info.mdx` writes it. Info options are read as imgproxy reads them (their own
    /// names, ``infoPresets``, ``infoOnlyPresets``, ``allowedInfoOptions``); the sources, the separator, the security options and the
    /// limits are the processing URLs'. The result's ``ProcessingOptions/info`` is set.
    public func parseInfo(_ path: String) throws(ProcessingURLError) -> ProcessingURL {
        let signed = try SignedPath(path, limits: limits, firstSegment: "signature segment")
        let segments = signed.path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        var read = InfoURLOptions(processing: ProcessingOptions())
        let reader = OptionReader<InfoURLOptions>(presets: infoPresets, limits: limits, separator: argumentsSeparator,
                                                  allowsSecurityOptions: allowSecurityOptions, allowedNames: allowedInfo.names)
        let index = try readOptions(segments, into: &read, reader: reader, onlyPresets: infoOnlyPresets)
        // An info answer is JSON whatever the source's name says.
        let (source, _) = try source(in: segments[index...])
        var options = read.processing
        options.info = read.info
        return ProcessingURL(signature: String(signed.signature), signedPath: String(signed.path), options: options, source: source)
    }
}
