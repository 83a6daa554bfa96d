import WebImage

/// The horizontal and vertical scales of a resize and the device pixel ratio it applies,
/// computed as imgproxy computes them: as shrinks (source ÷ target) for the resizing type, held
/// at 1 without `enlarge` (dividing both by the smaller when a target is out of reach, so that a
/// forced aspect ratio survives), the device pixel ratio capped at what the image can give
/// without enlarging, then the smallest width and height, which may enlarge.
struct ResizeScales: Hashable {
    /// The horizontal scale (output ÷ source).
    var x: Double
    /// The vertical scale (output ÷ source).
    var y: Double
    /// The device pixel ratio applied.
    var dprScale: Double

    /// The scales for `options` on a `source` of at least 1 × 1.
    init(options: ProcessingOptions, source: PixelSize) {
        let sw = Double(source.width), sh = Double(source.height)
        let dw = options.width > 0 ? Double(options.width) : sw
        let dh = options.height > 0 ? Double(options.height) : sh
        var wShrink = dw != sw ? sw / dw : 1, hShrink = dh != sh ? sh / dh : 1
        if wShrink != 1 || hShrink != 1 {
            var type = options.resizingType
            if type == .auto {
                type = (sw >= sh) == (dw >= dh) ? .fill : .fit
            }
            if options.width == 0 && type != .force {
                wShrink = hShrink
            } else if options.height == 0 && type != .force {
                hShrink = wShrink
            } else if type == .fit {
                wShrink = max(wShrink, hShrink)
                hShrink = wShrink
            } else if type == .fill || type == .fillDown {
                wShrink = min(wShrink, hShrink)
                hShrink = wShrink
            }
        }
        wShrink /= options.zoomX
        hShrink /= options.zoomY
        var dpr = options.dpr
        if !options.enlarge {
            let smaller = min(wShrink, hShrink)
            if smaller < 1 {
                wShrink /= smaller
                hShrink /= smaller
                // Out of reach without enlarging: a ratio below 1 would move further from the
                // target, so it is compensated, except with extend, whose composition must not
                // depend on the ratio. The cap below bounds what this raises.
                if !options.extend { dpr /= smaller }
            }
            dpr = min(dpr, min(wShrink, hShrink))
        }
        if options.minWidth > 0, sw / Double(options.minWidth) < wShrink {
            let least = sw / Double(options.minWidth)
            hShrink /= wShrink / least
            wShrink = least
        }
        if options.minHeight > 0, sh / Double(options.minHeight) < hShrink {
            let least = sh / Double(options.minHeight)
            wShrink /= hShrink / least
            hShrink = least
        }
        wShrink = min(wShrink / dpr, sw)
        hShrink = min(hShrink / dpr, sh)
        x = 1 / wShrink
        y = 1 / hShrink
        dprScale = dpr
    }

    /// Scales everything down by `factor` (for `max_result_dimension`), never below one pixel.
    mutating func limit(by factor: Double, source: PixelSize) {
        x = max(x * factor, 1 / Double(source.width))
        y = max(y * factor, 1 / Double(source.height))
        dprScale *= factor
    }
}
