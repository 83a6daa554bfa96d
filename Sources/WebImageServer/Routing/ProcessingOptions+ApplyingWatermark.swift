extension ProcessingOptions {
    /// `opacity[:position[:x[:y[:scale]]]]`, imgproxy's `watermark`: the position is an edge,
    /// a corner, `ce` or `re` (tiled); empty arguments keep the earlier ones; opacity 0 turns
    /// the watermark off. Two more arguments are read and ignored, as imgproxy's open-source
    /// edition ignores the ones its Pro edition takes.
    mutating func applyWatermark(_ arguments: OptionArguments, limits: ProcessingURLLimits) throws(ProcessingURLError) {
        try arguments.expectCount(1, 7)
        var value = watermark ?? ProcessingWatermark(opacity: 1)
        value.opacity = try arguments.decimal(0, in: 0...1)
        if arguments.has(1) {
            let position = arguments.values[1]
            if position == "re" {
                value.tiled = true
            } else {
                guard let kind = GravityKind(rawValue: String(position)), kind != .smart, kind != .focusPoint else {
                    throw arguments.fail("\"\(ProcessingURLError.quoting(position))\" is not a watermark position")
                }
                value.tiled = false
                value.gravity.kind = kind
            }
        }
        let offsets: ClosedRange<Double> = -Double(limits.maxDimension)...Double(limits.maxDimension)
        if arguments.has(2) { value.gravity.x = try arguments.decimal(2, in: offsets) }
        if arguments.has(3) { value.gravity.y = try arguments.decimal(3, in: offsets) }
        if arguments.has(4) {
            value.scale = try arguments.decimal(4, in: 0...limits.maxDPR)
            guard value.scale > 0 else { throw arguments.fail("the scale must be above 0") }
        }
        watermark = value.opacity > 0 ? value : nil
    }
}
