import WebImage

/// The sizes one request's resize goes through for a source of a given size, following
/// imgproxy's rules: the scaled size, the size a fill crops it to, and the canvas `extend` pads
/// it to. Width and height are the requested ones times the device pixel ratio.
struct ResizePlan: Hashable {
    /// The size the whole image is scaled to.
    var scaled: PixelSize
    /// The size the scaled image is cropped to (by the gravity); equal to ``scaled`` when nothing is cropped.
    var cropped: PixelSize
    /// The size of the final canvas (the cropped image placed on it by the gravity).
    var canvas: PixelSize

    /// The plan for `options` applied to a `source` (after rotation and crop).
    init(options: ProcessingOptions, source: PixelSize) {
        let width = Int((Double(options.width) * options.dpr).rounded())
        let height = Int((Double(options.height) * options.dpr).rounded())
        let sw = Double(max(source.width, 1)), sh = Double(max(source.height, 1))
        let wantsWidth = width > 0, wantsHeight = height > 0
        var type = options.resizingType
        if type == .auto {
            type = wantsWidth && wantsHeight && (source.width >= source.height) == (width >= height) ? .fill : .fit
        }
        var scaleX: Double, scaleY: Double
        switch (wantsWidth, wantsHeight) {
        case (false, false):
            (scaleX, scaleY) = (1, 1)
        case (true, false):
            (scaleX, scaleY) = (Double(width) / sw, Double(width) / sw)
        case (false, true):
            (scaleX, scaleY) = (Double(height) / sh, Double(height) / sh)
        case (true, true):
            let wx = Double(width) / sw, wy = Double(height) / sh
            switch type {
            case .force: (scaleX, scaleY) = (wx, wy)
            case .fill, .fillDown: (scaleX, scaleY) = (max(wx, wy), max(wx, wy))
            default: (scaleX, scaleY) = (min(wx, wy), min(wx, wy))
            }
        }
        if !options.enlarge {
            scaleX = min(scaleX, 1)
            scaleY = min(scaleY, 1)
        }
        scaled = PixelSize(width: max(1, Int((sw * scaleX).rounded())), height: max(1, Int((sh * scaleY).rounded())))
        cropped = scaled
        if wantsWidth && wantsHeight && (type == .fill || type == .fillDown) {
            var box = PixelSize(width: width, height: height)
            if type == .fillDown && (box.width > scaled.width || box.height > scaled.height) {
                // Shrink the box, keeping its aspect ratio, until it fits the scaled image.
                let shrink = min(Double(scaled.width) / Double(width), Double(scaled.height) / Double(height))
                box = PixelSize(width: max(1, Int((Double(width) * shrink).rounded())),
                                height: max(1, Int((Double(height) * shrink).rounded())))
            }
            cropped = PixelSize(width: min(box.width, scaled.width), height: min(box.height, scaled.height))
        }
        canvas = cropped
        if options.extend {
            canvas = PixelSize(width: max(cropped.width, width), height: max(cropped.height, height))
        }
    }
}
