extension ImageFormat {
    /// The format a name or file extension names, in any case: each format's own name
    /// (``description``: `jpeg`, `png`, `heic`, `heif`…) and the usual short spellings `jpg`
    /// and `tif`; nil for any other name, `undefined` included. The one table of format names:
    /// URL options, thumbor's `format` filter and the command line's `--format` read it.
    public init?(name: some StringProtocol) {
        switch name.lowercased() {
        case "jpg": self = .jpeg
        case "tif": self = .tiff
        case let lower:
            guard let format = ImageFormat(rawValue: lower), format != .undefined else { return nil }
            self = format
        }
    }
}
