/// The six swatches of Android's Palette and node-vibrant: a vibrant and a muted colour, each
/// also light and dark, picked from an image's quantised colours by how close they come to a
/// target lightness and saturation, and how many pixels they stand for.
///
/// The numbers are node-vibrant's defaults (which are Android's, except for the weights):
///
/// | swatch | HSL lightness: target (window) | HSL saturation: target (window) |
/// |---|---|---|
/// | vibrant | 0.5 (0.3…0.7) | 1 (0.35…1) |
/// | light vibrant | 0.74 (0.55…1) | 1 (0.35…1) |
/// | dark vibrant | 0.26 (0…0.45) | 1 (0.35…1) |
/// | muted | 0.5 (0.3…0.7) | 0.3 (0…0.4) |
/// | light muted | 0.74 (0.55…1) | 0.3 (0…0.4) |
/// | dark muted | 0.26 (0…0.45) | 0.3 (0…0.4) |
///
/// Among the colours inside a swatch's windows and not already taken by an earlier swatch (in
/// the order above), the one with the highest weighted mean of `1 − |s − target s|` (weight 3),
/// `1 − |l − target l|` (weight 6.5) and its population over the largest population (weight
/// 0.5) is chosen; the earliest of equals, the colours being ordered most pixels first.
public struct DominantColors: Sendable, Hashable {
    /// A saturated colour of middle lightness.
    public var vibrant: RGBA?
    /// A saturated light colour.
    public var lightVibrant: RGBA?
    /// A saturated dark colour.
    public var darkVibrant: RGBA?
    /// A greyish colour of middle lightness.
    public var muted: RGBA?
    /// A greyish light colour.
    public var lightMuted: RGBA?
    /// A greyish dark colour.
    public var darkMuted: RGBA?

    /// The number of colours the image is quantised to (by ``ColorPalette``'s MMCQ) before the
    /// swatches are picked, as in node-vibrant and Vibrant.js.
    public static let quantisedColors = 64

    /// The swatches of `pixels`, each nil when no colour of the image fits its windows (all nil
    /// for an image without pixels, or without any that count).
    ///
    /// As node-vibrant's default filter does, pixels under half opacity (alpha below 125) and
    /// near-white ones (R, G and B all above 250) are left out, and the others count as opaque:
    /// swatches are opaque colours.
    ///
    /// With `buildMissing`, swatches not found are made from found ones in HSL, in the order of
    /// node-vibrant's "generate empty swatches": when no vibrant swatch at all was found, dark
    /// and light vibrant from dark and light muted, at lightness 0.26 and 0.74; vibrant from
    /// dark vibrant (else light vibrant) at lightness 0.5; dark and light vibrant from vibrant
    /// at 0.26 and 0.74; then each muted swatch from the vibrant one of its lightness with
    /// saturation 0.3, the muted target. Two slips of node-vibrant are not copied: it stores the
    /// light vibrant made from light muted as dark vibrant, and sets the muted swatches'
    /// lightness (not saturation) to 0.3.
    public init(_ pixels: PixelBuffer, buildMissing: Bool = false) {
        let swatches = ColorPalette.quantize(pixels, maximum: Self.quantisedColors) { colour in
            guard colour.a >= 125, !(colour.r > 250 && colour.g > 250 && colour.b > 250) else { return nil }
            return RGBA(r: colour.r, g: colour.g, b: colour.b)
        }
        let candidates = swatches.map { (hsl: Self.hsl($0.color), color: $0.color, population: $0.population) }
        let largest = Double(swatches.map(\.population).max() ?? 1)
        var taken = Set<Int>()
        func pick(luma: (target: Double, range: ClosedRange<Double>), saturation: (target: Double, range: ClosedRange<Double>)) -> RGBA? {
            var best: (index: Int, score: Double)?
            for (index, candidate) in candidates.enumerated() where !taken.contains(index) {
                let (_, s, l) = candidate.hsl
                guard saturation.range.contains(s), luma.range.contains(l) else { continue }
                let score = (3 * (1 - abs(s - saturation.target)) + 6.5 * (1 - abs(l - luma.target))
                    + 0.5 * Double(candidate.population) / largest) / 10
                if best.map({ score > $0.score }) ?? true { best = (index, score) }
            }
            guard let best else { return nil }
            taken.insert(best.index)
            return candidates[best.index].color
        }
        let normal = (target: 0.5, range: 0.3...0.7), light = (target: 0.74, range: 0.55...1.0), dark = (target: 0.26, range: 0.0...0.45)
        let vivid = (target: 1.0, range: 0.35...1.0), dull = (target: 0.3, range: 0.0...0.4)
        vibrant = pick(luma: normal, saturation: vivid)
        lightVibrant = pick(luma: light, saturation: vivid)
        darkVibrant = pick(luma: dark, saturation: vivid)
        muted = pick(luma: normal, saturation: dull)
        lightMuted = pick(luma: light, saturation: dull)
        darkMuted = pick(luma: dark, saturation: dull)
        if buildMissing { buildMissingSwatches() }
    }

    /// Fills the swatches not found from those found, as ``init(_:buildMissing:)`` describes.
    private mutating func buildMissingSwatches() {
        if vibrant == nil && lightVibrant == nil && darkVibrant == nil {
            darkVibrant = darkMuted.map { Self.with($0, lightness: 0.26) }
            lightVibrant = lightMuted.map { Self.with($0, lightness: 0.74) }
        }
        if vibrant == nil { vibrant = (darkVibrant ?? lightVibrant).map { Self.with($0, lightness: 0.5) } }
        if darkVibrant == nil { darkVibrant = vibrant.map { Self.with($0, lightness: 0.26) } }
        if lightVibrant == nil { lightVibrant = vibrant.map { Self.with($0, lightness: 0.74) } }
        if muted == nil { muted = vibrant.map { Self.with($0, saturation: 0.3) } }
        if darkMuted == nil { darkMuted = darkVibrant.map { Self.with($0, saturation: 0.3) } }
        if lightMuted == nil { lightMuted = lightVibrant.map { Self.with($0, saturation: 0.3) } }
    }

    /// `colour` with its HSL lightness or saturation replaced.
    private static func with(_ colour: RGBA, saturation: Double? = nil, lightness: Double? = nil) -> RGBA {
        let (h, s, l) = hsl(colour)
        return rgb(hue: h, saturation: saturation ?? s, lightness: lightness ?? l)
    }

    /// Hue (0..<1 turns), saturation and lightness (0…1) of `colour`.
    private static func hsl(_ colour: RGBA) -> (h: Double, s: Double, l: Double) {
        let r = Double(colour.r) / 255, g = Double(colour.g) / 255, b = Double(colour.b) / 255
        let high = max(r, g, b), low = min(r, g, b)
        let l = (high + low) / 2
        guard high > low else { return (0, 0, l) }
        let d = high - low
        let s = l > 0.5 ? d / (2 - high - low) : d / (high + low)
        let h: Double
        switch high {
        case r: h = (g - b) / d + (g < b ? 6 : 0)
        case g: h = (b - r) / d + 2
        default: h = (r - g) / d + 4
        }
        return (h / 6, s, l)
    }

    /// The opaque colour of a hue (turns), saturation and lightness, rounded to bytes.
    private static func rgb(hue: Double, saturation s: Double, lightness l: Double) -> RGBA {
        let q = l < 0.5 ? l * (1 + s) : l + s - l * s
        let p = 2 * l - q
        func channel(_ offset: Double) -> UInt8 {
            var t = hue + offset
            if t < 0 { t += 1 }
            if t > 1 { t -= 1 }
            let value: Double
            if t < 1.0 / 6 {
                value = p + (q - p) * 6 * t
            } else if t < 1.0 / 2 {
                value = q
            } else if t < 2.0 / 3 {
                value = p + (q - p) * (2.0 / 3 - t) * 6
            } else {
                value = p
            }
            return UInt8((min(max(value, 0), 1) * 255).rounded())
        }
        return RGBA(r: channel(1.0 / 3), g: channel(0), b: channel(-1.0 / 3))
    }
}
