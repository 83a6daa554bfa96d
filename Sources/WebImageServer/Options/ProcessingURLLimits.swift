/// Bounds on what a request path may ask for, so that a hostile URL costs a bounded amount of
/// parsing and never requests a huge image.
public struct ProcessingURLLimits: Sendable, Hashable {
    /// The longest path accepted, in bytes.
    public var maxPathLength: Int
    /// The most options a URL may carry, counting those its presets expand to.
    public var maxOptions: Int
    /// The most arguments one option may have: 41 by default, `blur_areas`' sigma and ten areas.
    public var maxArguments: Int
    /// The largest width or height that may be requested, in pixels, before ``ProcessingOptions/dpr``.
    public var maxDimension: Int
    /// The largest device pixel ratio.
    public var maxDPR: Double
    /// The largest blur sigma, in pixels (a blur costs time in proportion to it).
    public var maxBlurSigma: Double
    /// How deeply presets may refer to other presets.
    public var maxPresetDepth: Int
    /// The most chained pipelines after the first (`/-/`): each makes the whole result again.
    public var maxPipelines: Int

    /// Limits with the given values; the defaults suit a public server.
    public init(maxPathLength: Int = 8192, maxOptions: Int = 64, maxArguments: Int = 41, maxDimension: Int = 16384,
                maxDPR: Double = 8, maxBlurSigma: Double = 100, maxPresetDepth: Int = 8,
                maxPipelines: Int = 8) {
        self.maxPathLength = maxPathLength
        self.maxOptions = maxOptions
        self.maxArguments = maxArguments
        self.maxDimension = maxDimension
        self.maxDPR = maxDPR
        self.maxBlurSigma = maxBlurSigma
        self.maxPresetDepth = maxPresetDepth
        self.maxPipelines = maxPipelines
    }
}
