import WebImage

/// When and how strongly results are sharpened by an unsharp mask (imgproxy's `unsharp_masking`
/// option and `IMGPROXY_UNSHARP_MASKING_*` settings), applied after the resize and the
/// `sharpen` option (the core's `ConvolutionTransformer.unsharpMask(weight:divider:)`).
public struct UnsharpMasking: Sendable, Hashable {
    /// When the mask applies.
    public enum Mode: String, Sendable, CaseIterable {
        /// Only when the image is made smaller and `sharpen` is not set (imgproxy Pro's default).
        case auto
        /// Never (this server's default, so results stay as imgproxy's open-source edition makes them).
        case none
        /// Always.
        case always
    }

    /// When the mask applies.
    public var mode: Mode = .none
    /// How much the neighbours take away from a pixel: the greater, the sharper; above 0.
    public var weight: Double = 1
    /// The mask's strength divider: the smaller, the sharper; above 0.
    public var divider: Double = 24

    /// Unsharp masking off, with imgproxy's weight 1 and divider 24 for when it is turned on.
    public init(mode: Mode = .none, weight: Double = 1, divider: Double = 24) {
        self.mode = mode
        self.weight = weight
        self.divider = divider
    }

    /// The mask to apply to a result that was made smaller (`downscaled`) or not, with or
    /// without the `sharpen` option (`sharpened`); nil when none applies.
    func mask(downscaled: Bool, sharpened: Bool) -> ConvolutionTransformer? {
        switch mode {
        case .none: nil
        case .auto where !downscaled || sharpened: nil
        case .auto, .always: .unsharpMask(weight: weight, divider: divider)
        }
    }

    /// The cache key's part, nil when off.
    var canonical: String? {
        mode == .none ? nil : "ush:\(mode.rawValue):\(CanonicalNumber.spell(weight)):\(CanonicalNumber.spell(divider))"
    }
}
