import WebImage

/// A thumbor URL's options while its filters are read: the ``ProcessingOptions`` so far and the
/// flips and quarter turns, which combine into one orientation at the end.
struct ThumborRequest {
    /// Whether the URL says `fit-in` (`fill` pads to the box, `stretch` does nothing).
    let fitIn: Bool
    /// The size part as written.
    let size: ThumborSize
    /// The options so far.
    var options = ProcessingOptions()
    /// Whether the image is mirrored left to right after the resize.
    var mirrored: Bool
    /// The clockwise quarter turns after the flip.
    var quarterTurns: Int
    /// Whether the image URL is read for an earlier thumbor URL's crop, which becomes a focal
    /// point (thumbor's `extract_focal`).
    var extractsFocal = false

    /// A request for the size part `size` in the fit-in `mode` (`fit-in`, `full-fit-in`,
    /// `adaptive-fit-in`, `adaptive-full-fit-in`; nil for none), cropped where `gravity` says
    /// without one. `full` covers the box, enlarging if need be, and crops nothing; `adaptive`
    /// swaps the box's sides when its orientation is not the source's.
    init(mode: Substring?, size: ThumborSize, gravity: Gravity) {
        fitIn = mode != nil
        self.size = size
        if let mode {
            let full = mode.hasSuffix("full-fit-in")
            options.resizingType = full ? .fill : .fit
            options.enlarge = full
            options.cropsFill = !full
            options.adaptsToOrientation = mode.hasPrefix("adaptive-")
        } else {
            options.resizingType = .fill
            options.enlarge = true
            options.gravity = gravity
        }
        options.animationsKeepFormat = true
        options.width = size.pixelWidth
        options.height = size.pixelHeight
        options.widthFromSource = size.widthIsOriginal
        options.heightFromSource = size.heightIsOriginal
        // A vertical flip is a horizontal one turned half round; both flips are the half turn alone.
        mirrored = size.flipsHorizontally != size.flipsVertically
        quarterTurns = size.flipsVertically ? 2 : 0
    }

    /// The options with the flips and turns applied after the resize.
    var finished: ProcessingOptions {
        var finished = options
        finished.postResizeOrientation = ImageOrientation(mirrored: mirrored, clockwiseQuarterTurns: quarterTurns)
        return finished
    }

    /// Applies the filters `list` writes (`quality(80):fill(white)`, percent-encoded as received),
    /// in order, within `parser`'s limits (and its loader reading a `watermark`'s image).
    mutating func apply(filters list: String, parser: ThumborURLParser) throws(ProcessingURLError) {
        let limits = parser.limits
        guard let decoded = list.removingPercentEncoding else {
            throw .invalidArgument(option: "filters", reason: "bad percent-encoding")
        }
        for filter in try ThumborFilter.list(decoded, limit: limits.maxOptions) {
            try apply(filter, parser: parser)
        }
    }

    /// Applies one filter, or throws ``ProcessingURLError/unsupportedFilter(_:)`` for one this server does not have.
    private mutating func apply(_ filter: ThumborFilter, parser: ThumborURLParser) throws(ProcessingURLError) {
        let limits = parser.limits
        let arguments = OptionArguments(option: filter.name, values: filter.arguments)
        switch filter.name {
        case "quality":
            try arguments.expectCount(1, 1)
            options.quality = try arguments.integer(0, in: 0...100)
        case "fill":
            try arguments.expectCount(1, 2)
            if arguments.values.count == 2 { _ = try arguments.boolean(1) }
            let name = arguments.values[0].lowercased()
            options.backgroundIsAverage = name == "auto"
            options.fillsWithBlur = name == "blur"
            options.background = options.backgroundIsAverage || options.fillsWithBlur ? nil : try ThumborColor.rgba(arguments)
            options.extend = fitIn
        case "background_color":
            try arguments.expectCount(1, 1)
            options.background = try ThumborColor.rgba(arguments)
        case "blur":
            // thumbor: radius 0 blurs nothing, and the radius stops at 150 while a sigma left out
            // is the radius asked; here the sigma stops at the server's blur limit too.
            try arguments.expectCount(1, 2)
            let radius = try arguments.integer(0, in: 0...1_000_000)
            let sigma = arguments.has(1) ? try arguments.decimal(1, in: 0...1_000_000) : 0
            options.blurSigma = radius == 0 ? 0 : min(sigma > 0 ? sigma : Double(radius), limits.maxBlurSigma)
        case "proportion":
            // thumbor scales the result by the proportion, and ignores one outside (0, 1].
            try arguments.expectCount(1, 1)
            let proportion = try arguments.decimal(0, in: -1_000_000...1_000_000)
            if proportion > 0, proportion < 1 { options.resultProportion = proportion }
        case "autojpg":
            // thumbor's AUTO_PNG_TO_JPG for this URL: on without an argument or with true.
            try arguments.expectCount(0, 1)
            options.opaquePNGToJPEG = arguments.has(0) ? try arguments.boolean(0) : true
        case "gifv":
            // thumbor's gifv optimizer writes a GIF result as a video, MP4 unless `webm` is asked.
            try arguments.expectCount(0, 1)
            let container = arguments.has(0) ? arguments.values[0].lowercased() : "mp4"
            guard container == "mp4" || container == "webm" else {
                throw arguments.fail("\"\(ProcessingURLError.quoting(container))\" is not a video container: mp4 or webm")
            }
            options.gifVideo = container
        case "rotate":
            try arguments.expectCount(1, 1)
            let angle = try arguments.integer(0, in: -3600...3600)
            // thumbor ignores an angle that is not a multiple of 90, and turns counter-clockwise.
            if angle % 90 == 0 { quarterTurns -= angle / 90 }
        default:
            if try applyPixelOrOutputFilter(filter, arguments, parser: parser) { return }
            if try applyFocusOrKernelFilter(filter, arguments) { return }
            try applyFlag(filter, arguments)
        }
    }

    /// Applies a filter without arguments.
    private mutating func applyFlag(_ filter: ThumborFilter, _ arguments: OptionArguments) throws(ProcessingURLError) {
        switch filter.name {
        case "grayscale": options.grayscale = true
        case "upscale": options.enlarge = true
        case "no_upscale": options.enlarge = false
        case "stretch" where !fitIn: options.resizingType = .force
        case "stretch": break  // thumbor's fit-in ignores it
        case "strip_exif": options.stripMetadata = true
        case "cover": options.firstFrameOnly = true
        default: throw .unsupportedFilter(ProcessingURLError.quoting(filter.name))
        }
        try arguments.expectCount(0, 0)
    }
}
