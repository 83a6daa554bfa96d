/// What an `/info` URL's option segments are read into: the ``InfoOptions`` and, for the
/// options info URLs share with processing, the ``ProcessingOptions`` that carry them.
struct InfoURLOptions: URLOptionVocabulary {
    /// The processing options the shared options set; their ``ProcessingOptions/info`` is set
    /// from ``info`` once the URL is read.
    var processing: ProcessingOptions
    /// What the answer reports.
    var info = InfoOptions()

    static func name(spelling: Substring) -> InfoOptionName? { InfoOptionName(spelling: spelling) }
    static var presetName: InfoOptionName { .preset }
    static func isSecurityOption(_ name: InfoOptionName) -> Bool { name == .maxSrcResolution || name == .maxSrcFileSize }

    /// Applies one option other than `preset`, checking its arguments against `limits`.
    mutating func apply(_ name: InfoOptionName, _ arguments: OptionArguments, limits: ProcessingURLLimits) throws(ProcessingURLError) {
        switch name {
        case .crop: try processing.apply(.crop, arguments, limits: limits)
        case .cacheBuster: try processing.apply(.cacheBuster, arguments, limits: limits)
        case .expires: try processing.apply(.expires, arguments, limits: limits)
        case .maxSrcResolution: try processing.apply(.maxSrcResolution, arguments, limits: limits)
        case .maxSrcFileSize: try processing.apply(.maxSrcFileSize, arguments, limits: limits)
        case .size: info.size = try Self.flag(arguments)
        case .format: info.format = try Self.flag(arguments)
        case .dimensions: info.dimensions = try Self.flag(arguments)
        case .exif: try Self.flags(arguments, &info.exif, &info.exifCanonicalNames)
        case .iptc: info.iptc = try Self.flag(arguments)
        case .xmp: info.xmp = try Self.flag(arguments)
        case .colorspace: info.colorspace = try Self.flag(arguments)
        case .bands: info.bands = try Self.flag(arguments)
        case .sampleFormat: info.sampleFormat = try Self.flag(arguments)
        case .pagesNumber: info.pagesNumber = try Self.flag(arguments)
        case .alpha: try Self.flags(arguments, &info.alpha, &info.checksTransparency)
        case .average: try Self.flags(arguments, &info.average, &info.averageIgnoresTransparent)
        case .blurhash:
            try arguments.expectCount(2, 2)
            let x = try arguments.integer(0, in: 0...9), y = try arguments.integer(1, in: 0...9)
            guard (x == 0) == (y == 0) else { throw arguments.fail("both components are 1 to 9, or both 0 for none") }
            info.blurHashComponents = (x, y)
        case .palette:
            try arguments.expectCount(1, 1)
            let colors = try arguments.integer(0, in: 0...256)
            guard colors != 1 else { throw arguments.fail("a palette has 2 to 256 colours, or 0 for none") }
            info.paletteColors = colors
        case .dominantColors: try Self.flags(arguments, &info.dominantColors, &info.buildsMissingColors)
        case .thumbHash: info.thumbHash = try Self.flag(arguments)
        case .perceptualHash: info.perceptualHash = try Self.flag(arguments)
        case .calcHashsums:
            var kinds: [SourceHashsum] = []
            for index in arguments.values.indices where arguments.has(index) {
                let kind = try ProcessingOptions.hashsum(arguments, index)
                if !kinds.contains(kind) { kinds.append(kind) }
            }
            info.hashsums = kinds
        case .hashsum: try processing.apply(.hashsum, arguments, limits: limits)
        case .page:
            try arguments.expectCount(1, 1)
            info.page = try arguments.integer(0, in: 0...Int(Int32.max))
        case .videoMeta:
            // Answered for videos only, which this server does not read: asking for it changes nothing.
            _ = try Self.flag(arguments)
        case .detectObjects, .classify, .objectsPosition:
            throw arguments.fail("object detection is not available on this server")
        case .videoThumbnailSecond, .videoThumbnailKeyframes:
            throw arguments.fail("video sources are not read by this server")
        case .preset:
            // ``OptionReader`` expands presets before an option reaches here.
            break
        }
    }

    /// A switch option with an optional second switch (`exif:1:1`, `alpha:1:1`): the first
    /// into `first`, the second, when given, into `second`.
    private static func flags(_ arguments: OptionArguments, _ first: inout Bool, _ second: inout Bool) throws(ProcessingURLError) {
        try arguments.expectCount(1, 2)
        first = try arguments.boolean(0)
        if arguments.has(1) { second = try arguments.boolean(1) }
    }

    /// The one boolean argument of a switch option.
    private static func flag(_ arguments: OptionArguments) throws(ProcessingURLError) -> Bool {
        try arguments.expectCount(1, 1)
        return try arguments.boolean(0)
    }
}
