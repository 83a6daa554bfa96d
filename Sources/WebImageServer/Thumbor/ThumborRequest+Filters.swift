import WebImage

extension ThumborRequest {
    /// The formats thumbor's `format` filter knows; any other name is ignored, as thumbor ignores it.
    private static let knownFormats: Set<ImageFormat> = [.png, .jpeg, .gif, .webp, .avif, .heic, .heif]

    /// Argument `index` of `arguments` as a tone curve, `[(x,y),(x,y),…]` with levels 0…255 and
    /// each x above the one before (thumbor's `curve`).
    private static func toneCurve(_ arguments: OptionArguments, _ index: Int) throws(ProcessingURLError) -> ToneCurve {
        let text = arguments.values[index]
        let invalid = arguments.fail("\"\(ProcessingURLError.quoting(text))\" is not [(x,y),…] with x increasing, 0…255")
        guard text.first == "[", text.last == "]" else { throw invalid }
        var points: [ToneCurve.Point] = []
        for pair in text.dropFirst().dropLast().split(separator: ")", omittingEmptySubsequences: true) {
            let numbers = pair.drop { $0 == "," || $0 == " " }
            guard numbers.first == "(" else { throw invalid }
            let parts = numbers.dropFirst().split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 2, let x = UInt8(parts[0].trimmingCharacters(in: .whitespaces)),
                  let y = UInt8(parts[1].trimmingCharacters(in: .whitespaces)) else { throw invalid }
            points.append(ToneCurve.Point(x, y))
        }
        guard let curve = ToneCurve(points) else { throw invalid }
        return curve
    }

    /// Applies the colour, sharpening and output filters; false for a filter that is none of them.
    mutating func applyPixelOrOutputFilter(_ filter: ThumborFilter, _ arguments: OptionArguments,
                                           parser: ThumborURLParser) throws(ProcessingURLError) -> Bool {
        let limits = parser.limits
        switch filter.name {
        case "brightness":
            try arguments.expectCount(1, 1)
            options.colorAdjustments.append(.brightness(percent: try arguments.integer(0, in: -1000...1000)))
        case "contrast":
            try arguments.expectCount(1, 1)
            options.colorAdjustments.append(.contrast(percent: try arguments.integer(0, in: -1000...1000)))
        case "rgb":
            try arguments.expectCount(3, 3)
            options.colorAdjustments.append(.channels(red: try arguments.integer(0, in: -1000...1000),
                                                      green: try arguments.integer(1, in: -1000...1000),
                                                      blue: try arguments.integer(2, in: -1000...1000)))
        case "saturation":
            try arguments.expectCount(1, 1)
            options.colorAdjustments.append(.saturation(factor: try arguments.decimal(0, in: -100...100)))
        case "noise":
            try arguments.expectCount(1, 2)
            let amount = try arguments.integer(0, in: 0...1000)
            let seed = arguments.has(1) ? try arguments.integer(1, in: 0...Int(UInt32.max)) : 0
            options.colorAdjustments.append(.noise(amount: amount, seed: UInt64(seed)))
        case "colorize":
            // colorize(red%,green%,blue%,rrggbb): each channel blended that far towards the colour's.
            try arguments.expectCount(4, 4)
            let hex = arguments.values[3]
            guard hex.count == 6, hex.allSatisfy(\.isHexDigit), let value = UInt32(hex, radix: 16) else {
                throw arguments.fail("\"\(ProcessingURLError.quoting(hex))\" is not a colour as rrggbb")
            }
            let colour = RGBA(r: UInt8(value >> 16), g: UInt8(value >> 8 & 0xFF), b: UInt8(value & 0xFF))
            options.colorAdjustments.append(.colorize(red: try arguments.integer(0, in: 0...1000), green: try arguments.integer(1, in: 0...1000),
                                                      blue: try arguments.integer(2, in: 0...1000), colour: colour))
        case "equalize":
            try arguments.expectCount(0, 0)
            options.colorAdjustments.append(.equalize)
        case "curve":
            try arguments.expectCount(4, 4)
            let curves = try (0..<4).map { index throws(ProcessingURLError) in try Self.toneCurve(arguments, index) }
            options.colorAdjustments.append(.curves(all: curves[0], red: curves[1], green: curves[2], blue: curves[3]))
        case "sharpen":
            // thumbor's amount and luminance_only are read but the unsharp mask has one strength.
            try arguments.expectCount(3, 3)
            _ = try arguments.decimal(0, in: 0...100)
            options.sharpenSigma = try arguments.decimal(1, in: 0...limits.maxBlurSigma)
            _ = try arguments.boolean(2)
        case "round_corner":
            // round_corner(a|b,r,g,b[,transparent]): corners of radius a across and b (a if not given) down.
            try arguments.expectCount(4, 5)
            let radii = OptionArguments(option: filter.name, values: arguments.values[0].split(separator: "|", omittingEmptySubsequences: false))
            try radii.expectCount(1, 2)
            let radius = try radii.integer(0, in: 0...limits.maxDimension)
            let verticalRadius = radii.values.count == 2 ? try radii.integer(1, in: 0...limits.maxDimension) : radius
            let colour = RGBA(r: UInt8(try arguments.integer(1, in: 0...255)), g: UInt8(try arguments.integer(2, in: 0...255)),
                              b: UInt8(try arguments.integer(3, in: 0...255)))
            options.cornerRadius = radius
            options.cornerVerticalRadius = verticalRadius == radius ? nil : verticalRadius
            let transparent = arguments.has(4) ? try arguments.boolean(4) : false
            options.cornerFill = transparent ? nil : colour
        case "strip_icc":
            try arguments.expectCount(0, 0)
            options.stripColorProfile = true
        case "max_age":
            try arguments.expectCount(1, 1)
            options.maxAge = try arguments.integer(0, in: 0...Int(Int32.max))
        case "max_bytes":
            try arguments.expectCount(1, 1)
            options.maxBytes = try arguments.integer(0, in: 0...Int(Int32.max))
        case "watermark":
            options.thumborOverlays.append(.watermark(try Self.watermark(arguments, parser: parser)))
        case "frame":
            // frame(url): the nine-patch's URL read as the image part is.
            try arguments.expectCount(1, 1)
            options.thumborOverlays.append(.frame(try parser.imageURL(arguments.values[0])))
        case "format":
            try arguments.expectCount(1, 1)
            // thumbor writes `heif` and `heic` alike: HEVC in HEIF, libheif's x265 encoder.
            let named = ImageFormat(name: arguments.values[0])
            options.format = try named.map(Self.knownFormats.contains) == true
                ? ProcessingOptions.format(named: arguments.values[0]) : nil
        default:
            return false
        }
        return true
    }

    /// `watermark(url,x,y,alpha[,w_ratio,h_ratio])`: the URL read as the image part is (by
    /// `parser`'s ``ThumborLoader`` when it names no scheme), `x` and `y` as ``ThumborWatermarkPosition``, alpha a
    /// transparency (over 100 counts as 100, all gone, as thumbor's arithmetic has it), the ratios percentages of the image's sides (0 or `none`: no bound).
    private static func watermark(_ arguments: OptionArguments, parser: ThumborURLParser) throws(ProcessingURLError)
        -> ThumborWatermark {
        try arguments.expectCount(4, 6)
        let url = try parser.imageURL(arguments.values[0])
        var positions: [ThumborWatermarkPosition] = []
        for index in 1...2 {
            guard let position = ThumborWatermarkPosition(arguments.values[index], limit: parser.limits.maxDimension) else {
                throw arguments.fail("\"\(ProcessingURLError.quoting(arguments.values[index]))\" is not a position: "
                    + "[-]pixels, [-]percentp, center or repeat")
            }
            positions.append(position)
        }
        var ratios: [Double?] = []
        for index in 4...5 {
            guard arguments.has(index), arguments.values[index] != "none" else {
                ratios.append(nil)
                continue
            }
            let percent = try arguments.integer(index, in: 0...100)
            ratios.append(percent > 0 ? Double(percent) / 100 : nil)
        }
        return ThumborWatermark(url: url, x: positions[0], y: positions[1], transparency: min(100, try arguments.integer(3, in: 0...100_000)),
                                widthRatio: ratios[0], heightRatio: ratios[1])
    }
}
