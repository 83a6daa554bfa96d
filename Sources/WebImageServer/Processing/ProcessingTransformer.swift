import WebImage

/// Applies a request's options to a decoded image, in imgproxy's order: orientation (undone
/// for `auto_rotate:0`), rotation, crop, resize (with the fill crop), grey, the `extend`
/// canvas, thumbor's flips and turns, blur, then flattening onto the background. Grey comes
/// before the canvas so that thumbor's `fill` colour stays a colour. Every frame of an
/// animation goes the same way: smart gravity judges the first frame and cuts the others
/// where it cut that one, so that the animation does not jump about.
struct ProcessingTransformer: ImageTransformer {
    /// What to do.
    let options: ProcessingOptions

    /// `imgproxy(` the canonical options `)`: equal options share cached results.
    var key: String { "imgproxy(\(options.canonicalKey))" }

    /// The processed image; nil for an image without pixels.
    func transform(_ image: Image, forKey key: String) -> Image? {
        guard image.pixelWidth > 0, image.pixelHeight > 0 else { return nil }
        let orientation = image.orientation
        var smartOrigins = SmartOrigins()
        return image.mappingFrames { process($0, orientation: orientation, smartOrigins: &smartOrigins) }
    }

    /// The size of the output for `image`, computed without touching a pixel, so that a
    /// too-large result is refused before it is allocated.
    func outputSize(for image: Image) -> PixelSize {
        var width = image.pixelWidth, height = image.pixelHeight
        if !options.autoRotate && image.orientation.swapsDimensions { swap(&width, &height) }
        if options.rotation % 180 == 90 { swap(&width, &height) }
        var size = PixelSize(width: width, height: height)
        if let crop = options.crop {
            size = cropSize(crop, of: size)
        }
        let canvas = ResizePlan(options: options, source: size).canvas
        return options.postResizeOrientation.swapsDimensions ? PixelSize(width: canvas.height, height: canvas.width) : canvas
    }

    /// Where smart gravity cut the first frame, for the next frames: the crop before the resize
    /// and the fill crop after it (nil until the first frame is cut).
    private struct SmartOrigins {
        var crop: (x: Int, y: Int)?
        var fill: (x: Int, y: Int)?
    }

    private func process(_ frame: PixelBuffer, orientation: ImageOrientation, smartOrigins: inout SmartOrigins) -> PixelBuffer {
        var pixels = frame
        if !options.autoRotate && orientation != .up {
            pixels = pixels.applying(orientation.undoing)
        }
        switch options.rotation {
        case 90: pixels = pixels.applying(.right)
        case 180: pixels = pixels.applying(.down)
        case 270: pixels = pixels.applying(.left)
        default: break
        }
        if let crop = options.crop {
            pixels = cropped(pixels, to: crop, smartOrigin: &smartOrigins.crop)
        }
        let plan = ResizePlan(options: options, source: PixelSize(width: pixels.width, height: pixels.height))
        if plan.scaled != PixelSize(width: pixels.width, height: pixels.height) {
            pixels = Resampler.resize(pixels, to: plan.scaled)
        }
        if plan.cropped != plan.scaled {
            let origin = smartOrigins.fill ?? options.gravity.origin(of: plan.cropped, in: pixels)
            if options.gravity.kind == .smart { smartOrigins.fill = origin }
            pixels = pixels.cropped(to: PixelRect(x: origin.x, y: origin.y, width: plan.cropped.width, height: plan.cropped.height))
        }
        if options.grayscale, let grey = GrayscaleTransformer().transform(Image(pixels: pixels), forKey: "") {
            pixels = grey.pixels
        }
        if plan.canvas != plan.cropped {
            let origin = options.gravity.origin(of: plan.cropped, in: plan.canvas)
            pixels = pixels.placed(on: plan.canvas, at: origin, fill: options.background ?? .clear)
        }
        pixels = pixels.applying(options.postResizeOrientation)
        if options.blurSigma > 0, let blurred = GaussianBlurTransformer(radius: options.blurSigma)
            .transform(Image(pixels: pixels), forKey: "") {
            pixels = blurred.pixels
        }
        if let background = options.background {
            pixels = pixels.flattened(onto: background)
        }
        return pixels
    }

    /// The size `crop` keeps of an image of `size`: sides of 0 keep the whole side, sides under
    /// 1 are fractions, larger ones pixels, never more than the image has.
    private func cropSize(_ crop: ProcessingCrop, of size: PixelSize) -> PixelSize {
        func side(_ value: Double, of full: Int) -> Int {
            let pixels = value == 0 ? full : value < 1 ? Int((Double(full) * value).rounded()) : Int(value)
            return min(max(pixels, 1), full)
        }
        return PixelSize(width: side(crop.width, of: size.width), height: side(crop.height, of: size.height))
    }

    /// The area `crop` keeps, placed by its gravity (or the request's); a smart gravity's
    /// placement is `smartOrigin` when known, and becomes it otherwise.
    private func cropped(_ pixels: PixelBuffer, to crop: ProcessingCrop, smartOrigin: inout (x: Int, y: Int)?) -> PixelBuffer {
        let size = cropSize(crop, of: PixelSize(width: pixels.width, height: pixels.height))
        let gravity = crop.gravity ?? options.gravity
        let origin = smartOrigin ?? gravity.origin(of: size, in: pixels)
        if gravity.kind == .smart { smartOrigin = origin }
        return pixels.cropped(to: PixelRect(x: origin.x, y: origin.y, width: size.width, height: size.height))
    }
}
