import WebImage

extension ThumborRequest {
    /// The most weights a `convolution` kernel may have (11 × 11): every output pixel costs one
    /// multiplication a weight and a channel.
    static let maxConvolutionWeights = 121

    /// Applies the focal, kernel and eye filters; false for a filter that is none of them.
    mutating func applyFocusOrKernelFilter(_ filter: ThumborFilter, _ arguments: OptionArguments) throws(ProcessingURLError) -> Bool {
        switch filter.name {
        case "focal":
            // As thumbor's, anything but LxT:RxB with an area (`focal()`, `focal(0x0:0x0)`) is ignored.
            if let region = Self.focalRegion(arguments.values.joined(separator: ",")) {
                options.focalRegions.append(region)
            }
        case "extract_focal":
            try arguments.expectCount(0, 0)
            extractsFocal = true
        case "redeye", "red_eye":
            // thumbor corrects only eyes inside faces its OpenCV detector found: without a
            // detector there are none, and thumbor leaves the image as it is too.
            try arguments.expectCount(0, 0)
        case "convolution":
            try arguments.expectCount(2, 3)
            let items = arguments.values[0].split(separator: ";", omittingEmptySubsequences: false)
            guard items.count <= Self.maxConvolutionWeights else {
                throw arguments.fail("a kernel of more than \(Self.maxConvolutionWeights) weights")
            }
            let kernelArguments = OptionArguments(option: filter.name, values: items)
            var weights: [Double] = []
            for index in items.indices { weights.append(try kernelArguments.decimal(index, in: -1_000_000...1_000_000)) }
            let columns = try arguments.integer(1, in: 1...Self.maxConvolutionWeights)
            let normalize = arguments.has(2) ? try arguments.boolean(2) : true
            guard let kernel = ConvolutionTransformer(weights: weights, columns: columns, normalize: normalize) else {
                throw arguments.fail("\(weights.count) weights in rows of \(columns) make no kernel of odd width and height")
            }
            options.convolutions.append(kernel)
        default:
            return false
        }
        return true
    }

    /// The area `LxT:RxB` names (its start, as thumbor matches it), or nil when it names none or an empty one.
    static func focalRegion(_ text: String) -> PixelRect? {
        let numbers = text.split(separator: ":", maxSplits: 1).flatMap { $0.split(separator: "x", maxSplits: 1) }
            .map { $0.prefix(while: { $0.isASCII && $0.isNumber }) }
        guard numbers.count == 4, numbers.allSatisfy({ !$0.isEmpty && $0.count <= 9 }) else { return nil }
        let values = numbers.compactMap { Int($0) }
        guard values.count == 4, values[2] > values[0], values[3] > values[1] else { return nil }
        return PixelRect(x: values[0], y: values[1], width: values[2] - values[0], height: values[3] - values[1])
    }
}
