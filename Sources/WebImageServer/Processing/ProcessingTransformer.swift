import WebImage

/// Applies a request's options to a decoded image, in imgproxy's order: orientation (undone
/// for `auto_rotate:0`), rotation, flips, trim, crop, resize (with the fill crop), the unsharp
/// mask, grey, blur, sharpening, the blurred areas, the progressive blur, pixelation, colour adjustments (thumbor's, then imgproxy's brightness, contrast,
/// saturation, monochrome, duotone, colorize and gradient) and rounded corners, the `extend` and `extend_aspect_ratio` canvases, the padding,
/// thumbor's flips and turns, flattening onto the background, then the watermarks (imgproxy's, thumbor's) and thumbor's frames. Grey comes before the
/// canvases so that thumbor's `fill` colour stays a colour. The sizes are ``ResizePlan``'s. Every frame of an
/// animation goes the same way: smart gravity judges the first frame and cuts the others
/// where it cut that one, so that the animation does not jump about.
struct ProcessingTransformer: ImageTransformer {
    /// What to do.
    let options: ProcessingOptions
    /// The configured watermark's pixels, laid as ``ProcessingOptions/watermark`` says, or nil
    /// when none is configured (the option then does nothing).
    var watermark: PixelBuffer?
    /// The images of ``ProcessingOptions/thumborOverlays``, decoded, in the same order.
    var thumborMarks: [PixelBuffer] = []
    /// Whether the decoder already made the source smaller (a shrink on load), so that the
    /// result is downscaled even when the resize is not (``UnsharpMasking/Mode/auto``).
    var shrunkOnLoad = false

    /// `imgproxy(` the canonical options `)`: equal options share cached results.
    var key: String { "imgproxy(\(options.canonicalKey))" }

    /// The processed image; nil for an image without pixels.
    func transform(_ image: Image, forKey key: String) -> Image? {
        guard image.pixelWidth > 0, image.pixelHeight > 0 else { return nil }
        let orientation = image.orientation
        var smartOrigins = SmartOrigins()
        // As imgproxy, an animation is not trimmed: its frames could lose different borders.
        let trims = image.frames.count == 1
        return image.mappingFrames { process($0, orientation: orientation, trims: trims, smartOrigins: &smartOrigins) }
    }

    /// The size of the output for `image`, computed without touching a pixel, so that a
    /// too-large result is refused before it is allocated: the plan the frames are made by, for
    /// the size the preparation keeps (a trim, known only from the pixels, can only shrink it).
    func outputSize(for image: Image) -> PixelSize {
        outputSize(of: image.pixelSize, orientation: image.orientation)
    }

    /// The size of the output for an image of `source` pixels declaring `orientation`, as ``outputSize(for:)``.
    func outputSize(of source: PixelSize, orientation: ImageOrientation) -> PixelSize {
        var size = options.turned(source, orientation: orientation)
        if let crop = options.crop {
            size = cropSize(crop, of: size)
        }
        return plan(prepared: size, of: source).output
    }

    /// Where smart gravity cut the first frame, for the next frames: the crop before the resize
    /// and the fill crop after it (nil until the first frame is cut).
    private struct SmartOrigins {
        var crop: (x: Int, y: Int)?
        var fill: (x: Int, y: Int)?
    }

    private func process(_ frame: PixelBuffer, orientation: ImageOrientation, trims: Bool,
                         smartOrigins: inout SmartOrigins) -> PixelBuffer {
        var prepared = prepared(frame, orientation: orientation, trims: trims, smartOrigin: &smartOrigins.crop)
        let preparedSize = prepared.pixels.size
        let framePlan = plan(prepared: prepared.pixels.size, of: frame.size)
        if framePlan.bounded != prepared.pixels.size {
            prepared.pixels = Resampler.resize(prepared.pixels, to: framePlan.bounded, filter: options.resizingAlgorithm, linearLight: options.linearLight)
        }
        let plan = framePlan.resize
        let made = resized(prepared, plan: plan, smartOrigin: &smartOrigins.fill)
        var pixels = made.pixels
        let downscaled = shrunkOnLoad || plan.scaled.width < preparedSize.width || plan.scaled.height < preparedSize.height
        if let mask = options.unsharpMasking.mask(downscaled: downscaled, sharpened: options.sharpenSigma > 0) {
            pixels = Self.applying(mask, to: pixels)
        }
        if options.grayscale { pixels = Self.applying(GrayscaleTransformer(), to: pixels) }
        pixels = Self.applying(GaussianBlurTransformer(radius: options.blurSigma), to: pixels)
        pixels = Self.applying(SharpeningTransformer(sigma: options.sharpenSigma), to: pixels)
        if let blurAreas = options.blurAreas {
            let areas = blurAreas.areas.map { resultRect(of: $0, prepared: prepared, preparedSize: preparedSize, plan: plan, cut: made.cut) }
            pixels = Self.applying(AreaBlurTransformer(sigma: blurAreas.sigma, areas: areas), to: pixels)
        }
        if let progressiveBlur = options.progressiveBlur { pixels = Self.applying(progressiveBlur, to: pixels) }
        pixels = Self.applying(PixelatingTransformer(size: options.pixelateSize), to: pixels)
        pixels = Self.applying(ColorAdjustingTransformer(options.colorAdjustments + options.imgproxyAdjustments), to: pixels)
        for transformer in [options.monochrome, options.duotone].compactMap({ $0 }) { pixels = Self.applying(transformer, to: pixels) }
        for transformer in [options.colorize, options.gradient].compactMap({ $0 }) { pixels = Self.applying(transformer, to: pixels) }
        for convolution in options.convolutions { pixels = Self.applying(convolution, to: pixels) }
        if options.cornerRadius > 0 {
            pixels = Self.applying(RoundCornerTransformer(radius: Double(options.cornerRadius),
                                                                 verticalRadius: options.cornerVerticalRadius.map(Double.init)), to: pixels)
            if let fill = options.cornerFill { pixels = pixels.flattened(onto: fill) }
        }
        let background = (options.backgroundIsAverage ? pixels.averageColour : options.background)
            .map { options.backgroundAlpha < 1 ? RGBA(r: $0.r, g: $0.g, b: $0.b, a: UInt8((Double($0.a) * options.backgroundAlpha).rounded())) : $0 }
        let fill = background ?? .clear
        pixels = placed(pixels, on: plan.extended, by: options.extendGravity, dpr: plan.dprScale, fill: fill,
                        blurred: options.fillsWithBlur)
        pixels = placed(pixels, on: plan.aspectExtended, by: options.extendAspectRatioGravity, dpr: plan.dprScale, fill: fill)
        let padding = plan.padding
        pixels = Self.applying(PaddingTransformer(top: padding.top, right: padding.right, bottom: padding.bottom,
                                                  left: padding.left, fill: fill), to: pixels)
        pixels = pixels.applying(options.postResizeOrientation)
        if let background {
            pixels = pixels.flattened(onto: background)
        }
        if let placement = options.watermark, let watermark {
            pixels = Self.applying(placement.transformer(laying: watermark, on: pixels.size,
                                                         dpr: plan.dprScale, style: options.watermarkStyle), to: pixels)
        }
        for (overlay, image) in zip(options.thumborOverlays, thumborMarks) {
            switch overlay {
            case let .watermark(filter):
                pixels = Self.applying(filter.transformer(laying: image, on: pixels.size), to: pixels)
            case .frame:
                if let patch = NinePatch(image) { pixels = NinePatchFrameTransformer(patch: patch).framed(pixels) }
            }
        }
        return pixels
    }

    /// A frame before its resize: upright (or not, for `auto_rotate:0`), rotated, flipped,
    /// trimmed and cropped, with the areas the trim and the crop kept (nil when they kept all).
    struct Prepared {
        var pixels: PixelBuffer
        /// The frame's size once turned and flipped, before the trim and the crop.
        var turned = PixelSize(width: 0, height: 0)
        var trimmed: PixelRect?
        var cropped: PixelRect?
    }

    /// `frame` prepared for its resize.
    func prepared(_ frame: PixelBuffer, orientation: ImageOrientation, trims: Bool,
                  smartOrigin: inout (x: Int, y: Int)?) -> Prepared {
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
        pixels = Self.applying(FlippingTransformer(horizontal: options.flipHorizontal, vertical: options.flipVertical), to: pixels)
        var prepared = Prepared(pixels: pixels, turned: pixels.size)
        if trims, let trim = options.trim {
            let trimmer = TrimmingTransformer(threshold: trim.threshold, colour: trim.colour, equalHorizontal: trim.equalHorizontal,
                                              equalVertical: trim.equalVertical, fromBottomRight: trim.fromBottomRight)
            if let box = trimmer.content(of: pixels), box != PixelRect(x: 0, y: 0, width: pixels.width, height: pixels.height) {
                prepared.trimmed = box
                pixels = pixels.cropped(to: box)
            }
        }
        if let crop = options.crop {
            let rect = cropRect(pixels, crop, smartOrigin: &smartOrigin)
            prepared.cropped = rect
            pixels = pixels.cropped(to: rect)
        }
        prepared.pixels = pixels
        return prepared
    }

    /// `prepared`'s pixels scaled to `plan.scaled` and cut to `plan.cropped` where the fill
    /// gravity says (``fillGravity(after:)``), with where the cut started (nil for no cut); a smart
    /// cut's origin is `smartOrigin` when known, and becomes it otherwise.
    func resized(_ prepared: Prepared, plan: ResizePlan, smartOrigin: inout (x: Int, y: Int)?)
        -> (pixels: PixelBuffer, cut: (x: Int, y: Int)?) {
        var pixels = prepared.pixels
        if plan.scaled != pixels.size {
            pixels = Resampler.resize(pixels, to: plan.scaled, filter: options.resizingAlgorithm, linearLight: options.linearLight)
        }
        guard plan.cropped != plan.scaled else { return (pixels, nil) }
        let gravity = fillGravity(after: prepared)
        let origin = smartOrigin ?? gravity.origin(of: plan.cropped, in: pixels, dpr: plan.dprScale)
        if gravity.kind == .smart { smartOrigin = origin }
        return (pixels.cropped(to: PixelRect(x: origin.x, y: origin.y, width: plan.cropped.width, height: plan.cropped.height)), origin)
    }

    /// Where the fill crop centres: on the ``ProcessingOptions/focalRegions`` whose centres lie
    /// inside the crop, by their centres weighted by their areas (thumbor's centre of mass, in
    /// whole pixels), as a focus point of the prepared image; on the request's gravity without any.
    func fillGravity(after prepared: Prepared) -> Gravity {
        let crop = prepared.cropped ?? PixelRect(x: 0, y: 0, width: Int(Int32.max), height: Int(Int32.max))
        var weight = 0.0, sumX = 0.0, sumY = 0.0
        for region in options.focalRegions {
            let x = region.x + region.width / 2, y = region.y + region.height / 2
            guard x >= crop.x, x <= crop.x + crop.width, y >= crop.y, y <= crop.y + crop.height else { continue }
            let area = Double(region.width) * Double(region.height)
            weight += area
            sumX += Double(x - (prepared.cropped?.x ?? 0)) * area
            sumY += Double(y - (prepared.cropped?.y ?? 0)) * area
        }
        guard weight > 0, prepared.pixels.width > 0, prepared.pixels.height > 0 else { return options.gravity }
        return Gravity(kind: .focusPoint, x: (sumX / weight).rounded(.down) / Double(prepared.pixels.width),
                       y: (sumY / weight).rounded(.down) / Double(prepared.pixels.height))
    }

    /// Where `area` (a ``BlurAreas/Area`` of the upright source) lies in a resized frame: turned
    /// and flipped with the image, moved by the trim and the crop, scaled from the `prepared`
    /// frame's `preparedSize` to the plan's, and moved by the fill crop's `cut`; whole pixels
    /// covering it.
    private func resultRect(of area: BlurAreas.Area, prepared: Prepared, preparedSize: PixelSize, plan: ResizePlan,
                            cut: (x: Int, y: Int)?) -> PixelRect {
        let turned = area.turned(by: options.rotation, flipHorizontal: options.flipHorizontal, flipVertical: options.flipVertical)
        let shiftX = Double((prepared.trimmed?.x ?? 0) + (prepared.cropped?.x ?? 0))
        let shiftY = Double((prepared.trimmed?.y ?? 0) + (prepared.cropped?.y ?? 0))
        let scaleX = Double(plan.scaled.width) / Double(max(preparedSize.width, 1))
        let scaleY = Double(plan.scaled.height) / Double(max(preparedSize.height, 1))
        func place(_ fraction: Double, side: Int, shift: Double, scale: Double, cut: Int) -> Double {
            (fraction * Double(side) - shift) * scale - Double(cut)
        }
        let left = place(turned.left, side: prepared.turned.width, shift: shiftX, scale: scaleX, cut: cut?.x ?? 0)
        let top = place(turned.top, side: prepared.turned.height, shift: shiftY, scale: scaleY, cut: cut?.y ?? 0)
        let right = place(turned.left + turned.width, side: prepared.turned.width, shift: shiftX, scale: scaleX, cut: cut?.x ?? 0)
        let bottom = place(turned.top + turned.height, side: prepared.turned.height, shift: shiftY, scale: scaleY, cut: cut?.y ?? 0)
        let bound = Double(Int32.max)
        let x = Int(min(max(left.rounded(.down), -bound), bound)), y = Int(min(max(top.rounded(.down), -bound), bound))
        return PixelRect(x: x, y: y, width: Int(min(max(right.rounded(.up), -bound), bound)) - x,
                         height: Int(min(max(bottom.rounded(.up), -bound), bound)) - y)
    }

    /// `pixels` transformed by `transformer`, or as they are when it does not apply.
    private static func applying(_ transformer: some ImageTransformer, to pixels: PixelBuffer) -> PixelBuffer {
        transformer.transform(Image(pixels: pixels), forKey: "")?.pixels ?? pixels
    }

    /// `pixels` placed by `gravity` on a canvas of `size` filled with `fill` (or, when
    /// `blurred`, with `pixels` blurred by a sigma of 50 and stretched to the canvas, thumbor's
    /// `fill(blur)`), or as they are when the canvas is their size.
    /// A nil `gravity` centres with the spare space halved and floored (thumbor's `fill`).
    private func placed(_ pixels: PixelBuffer, on size: PixelSize, by gravity: Gravity?, dpr: Double, fill: RGBA,
                        blurred: Bool = false) -> PixelBuffer {
        let inner = pixels.size
        guard size != inner else { return pixels }
        let origin = gravity?.origin(of: inner, in: size, dpr: dpr)
            ?? ((size.width - inner.width) / 2, (size.height - inner.height) / 2)
        guard blurred else { return pixels.placed(on: size, at: origin, fill: fill) }
        let canvas = Resampler.resize(Self.applying(GaussianBlurTransformer(radius: Self.fillBlurSigma), to: pixels), to: size)
        return pixels.drawn(over: canvas, at: origin)
    }

    /// The blur of thumbor's `fill(blur)` canvas.
    static let fillBlurSigma = 50.0

    /// The size `crop` keeps of an image of `size`: sides of 0 keep the whole side, sides under
    /// 1 are fractions, larger ones pixels, never more than the image has.
    private func cropSize(_ crop: ProcessingCrop, of size: PixelSize) -> PixelSize {
        func side(_ value: Double, of full: Int) -> Int {
            let pixels = value == 0 ? full : value < 1 ? Int((Double(full) * value).rounded()) : Int(value)
            return min(max(pixels, 1), full)
        }
        let asked = PixelSize(width: side(crop.width, of: size.width), height: side(crop.height, of: size.height))
        let ratio = options.cropAspectRatio
        guard ratio > 0 else { return asked }
        // `crop_aspect_ratio`: the side that breaks the ratio shrinks, or with its enlarge flag
        // the other grows, then both shrink together until the area fits the image.
        var width = Double(asked.width), height = Double(asked.height)
        if (width / height > ratio) != options.cropAspectRatioEnlarges {
            width = height * ratio
        } else {
            height = width / ratio
        }
        let fit = min(1, Double(size.width) / width, Double(size.height) / height)
        return PixelSize(width: min(max(Int((width * fit).rounded()), 1), size.width),
                         height: min(max(Int((height * fit).rounded()), 1), size.height))
    }

    /// The area `crop` keeps of `pixels`, placed by its gravity (or the request's); a smart
    /// gravity's placement is `smartOrigin` when known, and becomes it otherwise.
    private func cropRect(_ pixels: PixelBuffer, _ crop: ProcessingCrop, smartOrigin: inout (x: Int, y: Int)?) -> PixelRect {
        let size = cropSize(crop, of: pixels.size)
        let gravity = crop.gravity ?? options.gravity
        // The crop comes before the resize: its pixel offsets are not multiplied by the ratio.
        let origin = smartOrigin ?? gravity.origin(of: size, in: pixels, dpr: 1)
        if gravity.kind == .smart { smartOrigin = origin }
        return PixelRect(x: origin.x, y: origin.y, width: size.width, height: size.height)
    }
}
