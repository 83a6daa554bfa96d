import Foundation
import WebImage

/// The sizes that follow from a ``ResizeScales``: the requested size times the applied device
/// pixel ratio and zoom, the scaled image, the fill crop, and the `extend_aspect_ratio` canvas.
struct ResizeTargets: Hashable {
    /// The requested size times the device pixel ratio and zoom; a side of 0 was not given.
    var target: PixelSize
    /// The size the whole image is scaled to.
    var scaled: PixelSize
    /// The size the scaled image is cropped to (a side of 0: not cropped); `fill-down` shrinks
    /// it, keeping its aspect ratio, rather than enlarge.
    var resultCrop: PixelSize
    /// Whether `extend_aspect_ratio` applies (both sides requested).
    private var aspectRatio: Bool

    /// The sizes for `options` on `source` with `scales`.
    init(options: ProcessingOptions, source: PixelSize, scales: ResizeScales) {
        target = PixelSize(width: Self.scale(options.width, scales.dprScale * options.zoomX),
                           height: Self.scale(options.height, scales.dprScale * options.zoomY))
        scaled = PixelSize(width: Self.scale(source.width, scales.x), height: Self.scale(source.height, scales.y))
        resultCrop = options.cropsFill ? target : PixelSize(width: 0, height: 0)
        if options.resizingType == .fillDown && !options.enlarge, target.width > 0, target.height > 0 {
            let dw = Double(target.width) / Double(scaled.width), dh = Double(target.height) / Double(scaled.height)
            if dw > dh && dw > 1 {
                resultCrop = PixelSize(width: scaled.width, height: Self.scale(scaled.width, Double(target.height) / Double(target.width)))
            } else if dh > dw && dh > 1 {
                resultCrop = PixelSize(width: Self.scale(scaled.height, Double(target.width) / Double(target.height)), height: scaled.height)
            }
        }
        aspectRatio = options.extendAspectRatio && target.width > 0 && target.height > 0
    }

    /// The `extend_aspect_ratio` canvas for an image of `out`: its side stretched to the
    /// requested aspect ratio, or nil when there is nothing to extend.
    func aspectExtended(of out: PixelSize) -> PixelSize? {
        guard aspectRatio else { return nil }
        let dw = Double(target.width) / Double(out.width), dh = Double(target.height) / Double(out.height)
        if dh > dw { return PixelSize(width: out.width, height: Self.scale(out.width, Double(target.height) / Double(target.width))) }
        if dw > dh { return PixelSize(width: Self.scale(out.height, Double(target.width) / Double(target.height)), height: out.height) }
        return nil
    }

    /// The result's size before any limit, the canvases and the padding included, for
    /// `max_result_dimension`.
    func outerSize(options: ProcessingOptions, dprScale: Double) -> PixelSize {
        var width = ResizePlan.minNonZero(scaled.width, resultCrop.width)
        var height = ResizePlan.minNonZero(scaled.height, resultCrop.height)
        if options.extend {
            width = max(width, target.width)
            height = max(height, target.height)
        } else if let ratio = aspectExtended(of: PixelSize(width: width, height: height)) {
            width = max(width, ratio.width)
            height = max(height, ratio.height)
        }
        let padding = Self.scaledPadding(options.padding, dprScale: dprScale)
        return PixelSize(width: width + padding.left + padding.right, height: height + padding.top + padding.bottom)
    }

    /// `padding` times the device pixel ratio, each side rounded half to even as imgproxy rounds it.
    static func scaledPadding(_ padding: ProcessingPadding, dprScale: Double) -> ProcessingPadding {
        func side(_ value: Int) -> Int { Int((Double(value) * dprScale).rounded(.toNearestOrEven)) }
        return ProcessingPadding(top: side(padding.top), right: side(padding.right), bottom: side(padding.bottom), left: side(padding.left))
    }

    /// `value` × `scale` rounded half away from zero; 0 stays 0 (a side not given) and any
    /// other result is at least 1.
    static func scale(_ value: Int, _ scale: Double) -> Int {
        value == 0 ? 0 : PixelSize.side(Double(value) * scale)
    }
}
