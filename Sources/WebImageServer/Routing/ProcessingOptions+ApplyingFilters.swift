import WebImage

extension ProcessingOptions {
    /// Applies one of imgproxy Pro's sharpness and blur options (`unsharp_masking`, `blur_areas`,
    /// `progressive_blur`), checking its arguments against `limits`.
    mutating func applyFilter(_ name: ProcessingOptionName, _ arguments: OptionArguments,
                              limits: ProcessingURLLimits) throws(ProcessingURLError) {
        switch name {
        case .unsharpMasking:
            // Every argument may be omitted: an empty one keeps the server's.
            try arguments.expectCount(1, 3)
            if arguments.has(0) { unsharpMasking.mode = try arguments.choice(0, "the mode is auto, none or always") }
            if arguments.has(1) { unsharpMasking.weight = try Self.positive(arguments, 1) }
            if arguments.has(2) { unsharpMasking.divider = try Self.positive(arguments, 2) }
        case .blurAreas:
            guard arguments.values.count % 4 == 1 else {
                throw arguments.fail("takes a sigma, then left:top:width:height for each area")
            }
            let sigma = try arguments.decimal(0, in: 0...limits.maxBlurSigma)
            var areas: [BlurAreas.Area] = []
            for index in stride(from: 1, to: arguments.values.count, by: 4) {
                let area = BlurAreas.Area(left: try arguments.decimal(index, in: 0...1), top: try arguments.decimal(index + 1, in: 0...1),
                                          width: try arguments.decimal(index + 2, in: 0...1), height: try arguments.decimal(index + 3, in: 0...1))
                areas.append(area)
            }
            blurAreas = sigma > 0 && !areas.isEmpty ? BlurAreas(sigma: sigma, areas: areas) : nil
        case .progressiveBlur:
            try arguments.expectCount(1, 4)
            let sigma = try arguments.decimal(0, in: 0...limits.maxBlurSigma)
            progressiveBlur = sigma > 0 ? .progressiveBlur(sigma: sigma, try Self.ramp(arguments, from: 1)) : nil
        default:
            throw arguments.fail("not a filter option")
        }
    }

    /// Argument `index` as a number above 0 (and at most 1 000 000).
    private static func positive(_ arguments: OptionArguments, _ index: Int) throws(ProcessingURLError) -> Double {
        let value = try arguments.decimal(index, in: 0...1_000_000)
        guard value > 0 else { throw arguments.fail("must be above 0") }
        return value
    }
}
