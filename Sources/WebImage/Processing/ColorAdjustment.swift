/// One change to the colour of every pixel, with thumbor's arithmetic (its `brightness`,
/// `contrast`, `rgb`, `saturation`, `noise`, `equalize`, `curve` and `colorize` filters) or
/// imgproxy's (`brightness`, `contrast`, `saturation`: ``brightnessOffset(_:)``,
/// ``contrastScale(_:)``, ``luminanceSaturation(_:)``). Alpha is never changed.
public enum ColorAdjustment: Sendable, Hashable {
    /// Adds `percent` of 255 (−100…100, truncated towards zero) to red, green and blue.
    case brightness(percent: Int)
    /// Scales each channel's distance from 128 by ((100 + `percent`) ÷ 100)², `percent` in −100…100.
    case contrast(percent: Int)
    /// Adds the given percents of 255 to red, green and blue respectively.
    case channels(red: Int, green: Int, blue: Int)
    /// Moves each channel away from the pixel's perceived brightness
    /// (√(0.299 R² + 0.587 G² + 0.114 B²)) by `factor`: 0 is grey, 1 unchanged, 2 twice as vivid.
    case saturation(factor: Double)
    /// Adds to each pixel's channels one value drawn evenly from −amount/2 ..< amount/2, from a
    /// generator seeded with `seed`, so that the same request always gives the same bytes.
    case noise(amount: Int, seed: UInt64)
    /// Spreads each channel's histogram over 0…255 (histogram equalisation, per channel).
    case equalize
    /// Maps red, green and blue through their own curves, then all three through `all` (thumbor's
    /// `curve` filter).
    case curves(all: ToneCurve, red: ToneCurve, green: ToneCurve, blue: ToneCurve)
    /// Moves red, green and blue the given percents of the way to `colour`'s (truncated towards
    /// zero; past 100 they overshoot, clamped to 0…255), as thumbor's `colorize` filter blends.
    case colorize(red: Int, green: Int, blue: Int, colour: RGBA)
    /// Adds `offset` (−255…255) to red, green and blue, clamped (imgproxy's `brightness`).
    case brightnessOffset(Int)
    /// Scales each channel's distance from mid grey (128) by `factor`: 1 unchanged, 0 flat grey,
    /// 2 twice the contrast (imgproxy's `contrast`, whose documentation leaves the curve open).
    case contrastScale(Double)
    /// Moves each pixel's colour from its Rec. 709 luminance by `factor` with the matrix of the
    /// CSS and SVG `saturate()` filter: 0 grey, 1 unchanged, 2 twice as vivid (imgproxy's
    /// `saturation`).
    case luminanceSaturation(Double)

    /// A short spelling for cache keys: `brightness(20)`, `rgb(10,0,-5)`.
    public var key: String {
        switch self {
        case .brightness(let percent): "brightness(\(percent))"
        case .contrast(let percent): "contrast(\(percent))"
        case .channels(let red, let green, let blue): "rgb(\(red),\(green),\(blue))"
        case .saturation(let factor): "saturation(\(factor))"
        case .noise(let amount, let seed): "noise(\(amount),\(seed))"
        case .equalize: "equalize"
        case .curves(let all, let red, let green, let blue): "curve(\(all.key),\(red.key),\(green.key),\(blue.key))"
        case .colorize(let red, let green, let blue, let colour): "colorize(\(red),\(green),\(blue),\(colour.r).\(colour.g).\(colour.b))"
        case .brightnessOffset(let offset): "offset(\(offset))"
        case .contrastScale(let factor): "contrastScale(\(TransformerKey.number(factor)))"
        case .luminanceSaturation(let factor): "saturate(\(TransformerKey.number(factor)))"
        }
    }
}
