import WebImage

extension ProcessingOptions {
    /// Applies one of imgproxy's options beyond the resize and its gravity: the smallest size,
    /// zoom, trim, padding, flips, filters, the watermark, per-format quality, the byte limit, skipping, `raw`
    /// and the result's largest side, checking its arguments against `limits`.
    mutating func applyExtra(_ name: ProcessingOptionName, _ arguments: OptionArguments,
                             limits: ProcessingURLLimits) throws(ProcessingURLError) {
        let dimension = 0...limits.maxDimension
        switch name {
        case .minWidth:
            try arguments.expectCount(1, 1)
            minWidth = try arguments.integer(0, in: dimension)
        case .minHeight:
            try arguments.expectCount(1, 1)
            minHeight = try arguments.integer(0, in: dimension)
        case .zoom:
            try arguments.expectCount(1, 2)
            let range = 0...limits.maxDPR
            zoomX = try arguments.decimal(0, in: range)
            zoomY = arguments.values.count > 1 ? try arguments.decimal(1, in: range) : zoomX
            guard zoomX > 0, zoomY > 0 else { throw arguments.fail("must be above 0") }
        case .maxResultDimension:
            try arguments.expectCount(1, 1)
            maxResultDimension = try arguments.integer(0, in: dimension)
        case .maxSrcResolution:
            try arguments.expectCount(1, 1)
            sourceLimits.maxSrcResolution = try arguments.decimal(0, in: 0...100_000)
            guard sourceLimits.maxSrcResolution ?? 0 > 0 else { throw arguments.fail("must be above 0") }
        case .maxSrcFileSize:
            try arguments.expectCount(1, 1)
            sourceLimits.maxSrcFileSize = try arguments.integer(0, in: 1...Int(Int32.max))
        case .maxAnimationFrames:
            try arguments.expectCount(1, 1)
            sourceLimits.maxAnimationFrames = try arguments.integer(0, in: 1...100_000)
        case .maxAnimationFrameResolution:
            try arguments.expectCount(1, 1)
            sourceLimits.maxAnimationFrameResolution = try arguments.decimal(0, in: 0...100_000)
        case .padding:
            try applyPadding(arguments, dimension: dimension)
        case .flip:
            try arguments.expectCount(1, 2)
            if arguments.has(0) { flipHorizontal = try arguments.boolean(0) }
            if arguments.has(1) { flipVertical = try arguments.boolean(1) }
        case .trim:
            try applyTrim(arguments)
        case .sharpen:
            try arguments.expectCount(1, 1)
            sharpenSigma = try arguments.decimal(0, in: 0...limits.maxBlurSigma)
        case .pixelate:
            try arguments.expectCount(1, 1)
            pixelateSize = try arguments.integer(0, in: dimension)
        case .formatQuality:
            try applyFormatQuality(arguments)
        case .maxBytes:
            try arguments.expectCount(1, 1)
            maxBytes = try arguments.integer(0, in: 0...Int(Int32.max))
        case .skipProcessing:
            try arguments.expectCount(1, 16)
            // The URL's list replaces the server's (--skip-processing-formats), as imgproxy's does.
            var formats: Set<ImageFormat> = []
            for name in arguments.values { formats.insert(try Self.anyFormat(named: name)) }
            skipProcessing = formats
        case .raw:
            try arguments.expectCount(1, 1)
            raw = try arguments.boolean(0)
        case .hashsum:
            try arguments.expectCount(1, 2)
            guard arguments.values[0] != "none" else {
                requiredHashsum = nil
                return
            }
            let kind = try Self.hashsum(arguments, 0)
            guard arguments.has(1) else { throw arguments.fail("needs the expected \(kind.rawValue) in hex") }
            let hex = arguments.values[1].lowercased()
            guard hex.count == kind.hexLength, hex.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
                throw arguments.fail("a \(kind.rawValue) is \(kind.hexLength) hex digits")
            }
            requiredHashsum = RequiredHashsum(kind: kind, hex: hex)
        case .cropAspectRatio:
            try arguments.expectCount(1, 2)
            cropAspectRatio = try arguments.decimal(0, in: 0...Double(limits.maxDimension))
            cropAspectRatioEnlarges = arguments.has(1) ? try arguments.boolean(1) : false
        case .page:
            try arguments.expectCount(1, 1)
            page = try arguments.integer(0, in: 0...Int(Int32.max))
        case .pages:
            try arguments.expectCount(1, 1)
            pages = try arguments.integer(0, in: 1...10_000)
        case .disableAnimation:
            try arguments.expectCount(1, 1)
            disablesAnimation = try arguments.boolean(0)
        case .resizingAlgorithm:
            try arguments.expectCount(1, 1)
            resizingAlgorithm = try arguments.choice(0, "is nearest, linear, cubic, lanczos2 or lanczos3")
        case .backgroundAlpha, .adjust, .brightness, .contrast, .saturation, .monochrome, .duotone, .colorize, .gradient:
            try applyColour(name, arguments)
        case .jpegOptions, .pngOptions, .webpOptions, .avifOptions, .dpi, .autoquality, .colorProfile:
            try applyEncoding(name, arguments)
        case .unsharpMasking, .blurAreas, .progressiveBlur:
            try applyFilter(name, arguments, limits: limits)
        case .bypassCache:
            try arguments.expectCount(1, 1)
            bypassesCache = try arguments.boolean(0)
        case .cacheTags:
            try applyCacheTags(arguments)
        case .watermark:
            try applyWatermark(arguments, limits: limits)
        case .watermarkURL, .watermarkText, .watermarkSize, .watermarkRotate, .watermarkShadow, .fallbackImageURL, .style:
            try applyWatermarkStyle(name, arguments, limits: limits)
        default:
            throw arguments.fail("not an option of its own")
        }
    }

    /// `top[:right[:bottom[:left]]]` in CSS's order: a missing right is the top, a missing
    /// bottom the top, a missing left the right.
    private mutating func applyPadding(_ arguments: OptionArguments, dimension: ClosedRange<Int>) throws(ProcessingURLError) {
        try arguments.expectCount(1, 4)
        var sides = padding
        if arguments.has(0) { sides.top = try arguments.integer(0, in: dimension) }
        sides.right = arguments.has(1) ? try arguments.integer(1, in: dimension) : sides.top
        sides.bottom = arguments.has(2) ? try arguments.integer(2, in: dimension) : sides.top
        sides.left = arguments.has(3) ? try arguments.integer(3, in: dimension) : sides.right
        padding = sides
    }

    /// `threshold[:colour[:equal_hor[:equal_ver]]]`; an empty threshold turns the trim off.
    private mutating func applyTrim(_ arguments: OptionArguments) throws(ProcessingURLError) {
        try arguments.expectCount(1, 4)
        guard arguments.has(0) else {
            trim = nil
            return
        }
        var value = ProcessingTrim(threshold: try arguments.decimal(0, in: 0...255))
        if arguments.has(1) { value.colour = try Self.hexColour(arguments, 1) }
        if arguments.has(2) { value.equalHorizontal = try arguments.boolean(2) }
        if arguments.has(3) { value.equalVertical = try arguments.boolean(3) }
        trim = value
    }

    /// `tag[:tag…]`: each printable ASCII without spaces, commas or quotes (a header field's
    /// list item), at most 128 bytes; they replace earlier ones, at most 32 of them.
    private mutating func applyCacheTags(_ arguments: OptionArguments) throws(ProcessingURLError) {
        try arguments.expectCount(1, 32)
        var tags: [String] = []
        for index in arguments.values.indices {
            let tag = try arguments.text(index, maxLength: 128)
            guard !tag.isEmpty, tag.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) && $0 != "," && $0 != "\"" }) else {
                throw arguments.fail("a tag is printable ASCII without spaces, commas or quotes")
            }
            if !tags.contains(tag) { tags.append(tag) }
        }
        cacheTags = tags
    }

    /// `format:quality[:format:quality…]`, each quality 0…100.
    private mutating func applyFormatQuality(_ arguments: OptionArguments) throws(ProcessingURLError) {
        guard !arguments.values.isEmpty, arguments.values.count % 2 == 0 else {
            throw arguments.fail("takes pairs of format and quality")
        }
        for index in stride(from: 0, to: arguments.values.count, by: 2) {
            formatQuality[try Self.anyFormat(named: arguments.values[index])] = try arguments.integer(index + 1, in: 0...100)
        }
    }

    /// Argument `index` as a digest's name.
    static func hashsum(_ arguments: OptionArguments, _ index: Int) throws(ProcessingURLError) -> SourceHashsum {
        guard let kind = SourceHashsum(rawValue: String(arguments.values[index])) else {
            throw arguments.fail("\"\(ProcessingURLError.quoting(arguments.values[index]))\" is not md5, sha1, sha256 or sha512")
        }
        return kind
    }

    /// The format any of imgproxy's format names names (`jpg`, `jpeg`, `png`, `webp`, `avif`,
    /// `gif`, `heic`, `heif`, `jxl`, `tiff`, `bmp`, `ico`, `svg`, `pdf`), written or not
    /// (``ImageFormat/init(name:)``).
    static func anyFormat(named name: Substring) throws(ProcessingURLError) -> ImageFormat {
        guard let format = ImageFormat(name: name) else { throw .unsupportedFormat(ProcessingURLError.quoting(name)) }
        return format
    }
}
