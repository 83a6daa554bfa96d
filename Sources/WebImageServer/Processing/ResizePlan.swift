import WebImage

/// The sizes one request's resize goes through for a source of a given size (after rotation,
/// trim and crop), following imgproxy's rules: the shrink a fit, fill or force asks for, never
/// past the source without `enlarge`; the device pixel ratio, capped so that it never enlarges
/// without `enlarge` either; the smallest size, the zoom, then the fill crop, the `extend` and
/// `extend_aspect_ratio` canvases and the padding, all scaled down together to keep the largest
/// side within `max_result_dimension`.
struct ResizePlan: Hashable {
    /// The device pixel ratio actually applied: the requested one, capped (see above); offsets
    /// in pixels and the padding are multiplied by it.
    var dprScale: Double
    /// The size the whole image is scaled to.
    var scaled: PixelSize
    /// The size the scaled image is cropped to (by the gravity); equal to ``scaled`` when nothing is cropped.
    var cropped: PixelSize
    /// The canvas `extend` places the cropped image on; equal to ``cropped`` without it.
    var extended: PixelSize
    /// The canvas `extend_aspect_ratio` places that on; equal to ``extended`` without it.
    var aspectExtended: PixelSize
    /// The padding in pixels, the device pixel ratio applied.
    var padding: ProcessingPadding
    /// The size of the result.
    var canvas: PixelSize {
        PixelSize(width: aspectExtended.width + padding.left + padding.right,
                  height: aspectExtended.height + padding.top + padding.bottom)
    }

    /// The plan for `options` applied to a `source` (after rotation, trim and crop).
    init(options requested: ProcessingOptions, source: PixelSize) {
        let source = PixelSize(width: max(source.width, 1), height: max(source.height, 1))
        let options = requested.resolvingSourceSides(for: source)
        var scales = ResizeScales(options: options, source: source)
        if options.resultProportion < 1 { scales.limit(by: options.resultProportion, source: source) }
        var targets = ResizeTargets(options: options, source: source, scales: scales)
        let limit = options.maxResultDimension
        if limit > 0 {
            let outer = targets.outerSize(options: options, dprScale: scales.dprScale)
            if outer.width > limit || outer.height > limit {
                scales.limit(by: Double(limit) / Double(max(outer.width, outer.height)), source: source)
                targets = ResizeTargets(options: options, source: source, scales: scales)
            }
        }
        dprScale = scales.dprScale
        scaled = targets.scaled
        let crop = targets.resultCrop
        cropped = crop.width == 0 && crop.height == 0 ? scaled
            : PixelSize(width: Self.minNonZero(crop.width, scaled.width), height: Self.minNonZero(crop.height, scaled.height))
        extended = cropped
        if options.extend, targets.target.width > cropped.width || targets.target.height > cropped.height {
            extended = PixelSize(width: max(targets.target.width, cropped.width), height: max(targets.target.height, cropped.height))
        }
        aspectExtended = extended
        if let ratio = targets.aspectExtended(of: cropped), ratio.width > extended.width || ratio.height > extended.height {
            aspectExtended = PixelSize(width: max(ratio.width, extended.width), height: max(ratio.height, extended.height))
        }
        padding = ResizeTargets.scaledPadding(options.padding, dprScale: scales.dprScale)
    }

    /// The smaller of two sizes, a 0 standing for "not given".
    static func minNonZero(_ a: Int, _ b: Int) -> Int {
        a == 0 ? b : b == 0 ? a : min(a, b)
    }
}
