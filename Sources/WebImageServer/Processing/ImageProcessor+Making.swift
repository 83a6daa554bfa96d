import Foundation
import WebImage
import WebImageCodecs

/// The making of a result from its source's bytes, inside a processing slot: decoded within the
/// limits (reduced on load when the output is smaller), checked, transformed, encoded.
extension ImageProcessor {
    /// The image `url` describes, made now from its `source` bytes and the encoded images of
    /// its `overlays`: decoded, checked against the limits, transformed, encoded.
    func make(_ url: ProcessingURL, from source: ImageDataResult, overlays: OverlayImages) async throws(ProcessingError)
        -> ProcessedImage {
        let options = url.options
        if let required = options.requiredHashsum, required.kind.hex(of: source.data) != required.hex {
            throw .unprocessable("the source's \(required.kind.rawValue) is not the one the URL names")
        }
        if let info = options.info { return try describe(source, url: url, info: info) }
        // thumbor always draws an SVG source (as PNG unless a format is chosen); imgproxy only
        // when asked, or with --always-rasterize-svg.
        let rasterizesUnnamed = output.alwaysRasterizeSVG || url.form == .thumbor
        let data = try Self.styled(source.data, options: options)
        if options.meta == nil, var svg = try Self.sanitizedSVG(data, options: options, rasterizesUnnamed: rasterizesUnnamed) {
            svg.sourceOrigin = source.source
            return svg
        }
        let started = ContinuousClock.now
        var decoded: Image
        do {
            decoded = try tracing.span("Decoding image") { () throws(ImageCodingError) -> Image in try decode(data, options: options) }
        } catch {
            // Bytes that are no image (an upload not finished, a body cut off) are not kept: the
            // next request asks the origin again and answers what it has then.
            if error.isUnusableData, source.url != Self.fallbackURL { await manager.removeData(for: source.url) }
            throw ProcessingError(loading: .badImageData(error))
        }
        if isStill(options), options.page > 0 || options.pages > 1 {
            guard options.page < decoded.frames.count else {
                throw .unprocessable("page \(options.page) asked of a source with \(decoded.frames.count)")
            }
            decoded = decoded.stackingFrames(options.page..<min(options.page + options.pages, decoded.frames.count))
        }
        // Decoded first all the same: the source's size is checked against the limits.
        if let untouched = Self.skipped(data, format: decoded.format, options: options) {
            var result = untouched
            result.sourceOrigin = source.source
            return result
        }
        if let meta = options.meta {
            // thumbor's description of the work, in JSON: no image is encoded, no mark loaded.
            return ProcessedImage(data: ProcessingTransformer(options: options).metadata(of: decoded, meta: meta),
                                  format: .undefined, sourceOrigin: source.source)
        }
        let marks = try decodedOverlays(overlays)
        var transformer = ProcessingTransformer(options: options, watermark: try textMark(of: options) ?? marks.watermark ?? auxiliary.watermark,
                                                thumborMarks: marks.thumbor)
        if options.unsharpMasking.mode == .auto, Self.decodeOptions(for: options).thumbnailPixelSize != nil,
           let header = try? manager.coders.header(of: source.data) {
            // The header's sides are the stored ones: compare areas, which turning keeps.
            transformer.shrunkOnLoad = decoded.pixels.size.area < header.pixelSize.area
        }
        // Each chained pipeline processes the one before's upright result.
        var steps = [transformer]
        for (step, mark) in zip(options.chained, marks.chained) {
            // The URL's bound on the result's side holds in every pipeline.
            var step = step
            step.maxResultDimension = options.maxResultDimension
            steps.append(ProcessingTransformer(options: step, watermark: try textMark(of: step) ?? mark ?? auxiliary.watermark))
        }
        // The limits count over the whole chain: every step's result, and the blurs of all.
        var size = decoded.pixelSize, orientation = decoded.orientation, blurWork = 0.0
        for step in steps {
            size = step.outputSize(of: size, orientation: orientation)
            orientation = .up
            blurWork += try checkedWork(of: step, making: size, frames: decoded.frames.count)
        }
        guard blurWork <= Double(maxResultPixels) * Self.blurSigmaAtResultLimit else {
            throw .unprocessable("the blurs over \(size) × \(decoded.frames.count) frame(s) are more work than allowed: "
                + "at most a sigma of \(Self.blurSigmaAtResultLimit.plainText) at the result limit, more on fewer pixels")
        }
        var image = tracing.span("Transforming image") {
            steps.reduce(decoded) { image, step in
                var made = step.transform(image, forKey: step.key) ?? image
                made.orientation = .up
                return made
            }
        }
        if let name = options.colorProfile { image = try withColorProfile(image, named: name) }
        // A source's EXIF block is carried made true of the result, or its copyright tags alone.
        let exif = EXIFBlock.find(in: source.data).flatMap { block in
            options.stripMetadata ? (options.keepCopyright ? EXIF.copyright(fromTIFF: block) : nil)
                : EXIF.upright(fromTIFF: block, width: image.pixelWidth, height: image.pixelHeight)
        }
        var result = try tracing.span("Encoding image") { () throws(ProcessingError) -> ProcessedImage in
            try encoder.encode(image, options: options, exif: exif)
        }
        metrics.processingDuration.record(duration: started.duration(to: .now))
        result.sourceOrigin = source.source
        if answers.enableDebugHeaders, let header = try? manager.coders.header(of: data) {
            result.dimensions = ResultDimensions(sourceBytes: source.data.count, sourceWidth: header.pixelSize.width,
                                                 sourceHeight: header.pixelSize.height, resultWidth: image.pixelWidth,
                                                 resultHeight: image.pixelHeight)
        }
        return result
    }

    /// The watermark `options`' `watermark_text` draws (through the SVG coder, librsvg's Pango),
    /// cut to its ink and faded by the watermark's base opacity; nil without a watermark or text.
    private func textMark(of options: ProcessingOptions) throws(ProcessingError) -> PixelBuffer? {
        guard options.watermark != nil, let markup = options.watermarkText else { return nil }
        do {
            let document = try WatermarkText(markup: markup).svg()
            let drawn = try manager.coders.decode(document).pixels
            return AuxiliaryImages.faded(WatermarkText.trimmed(drawn), by: auxiliary.watermarkOpacity)
        } catch {
            throw .watermarkFailed("the watermark text: \(error)")
        }
    }

    /// The work `step` costs making a result of `size` and `frames` frames, in pixels times blur
    /// sigma, after checking that result against the pixel limit. A blur costs its pixels times
    /// its radius (a separable kernel of about six sigmas a pass), so that a 10-pixel source
    /// enlarged to the result limit and blurred by 100 is refused before it starts rather than
    /// kept busy for half a minute. Sharpening blurs once too, at its own sigma; blurred areas
    /// count once each; a progressive blur blurs at each of its levels; a watermark's shadow
    /// blurs the mark's canvas on every frame.
    private func checkedWork(of step: ProcessingTransformer, making size: PixelSize, frames: Int) throws(ProcessingError) -> Double {
        let total = size.area.multipliedReportingOverflow(by: frames)
        guard !total.overflow, total.partialValue <= maxResultPixels else {
            throw .unprocessable("the result would be \(size) × \(frames) frame(s), over \(maxResultPixels) pixels")
        }
        let options = step.options
        let areaSigmas = options.blurAreas.map { $0.sigma * Double($0.areas.count) } ?? 0
        let progressiveSigmas = options.progressiveBlur.map { $0.sigma * Double($0.levels + 1) / 2 } ?? 0
        let sigmas = options.blurSigma + options.sharpenSigma + (options.fillsWithBlur ? ProcessingTransformer.fillBlurSigma : 0)
            + areaSigmas + progressiveSigmas
        // The mark is shaped for every frame: sized, it has at most the result's pixels (unsized, its
        // own), a turn at most doubles them, and the shadow's canvas grows by three sigmas a side.
        let sigma = options.watermarkStyle.shadowSigma
        let mark = options.watermark == nil || sigma == 0 ? nil : step.watermark
        let shadowWork = mark.map { mark in
            let side = (2 * Double(max(mark.size.area, size.area))).squareRoot() + 6 * sigma
            return Double(frames) * side * side * sigma
        } ?? 0
        return Double(total.partialValue) * sigmas + shadowWork
    }

    /// The first frames of `overlays`' images, thumbor's in order and the URLs' watermarks (faded
    /// by the watermark's base opacity). They share the source pixel limit between them: many
    /// filters of large marks cost no more than one large source.
    private func decodedOverlays(_ overlays: OverlayImages) throws(ProcessingError)
        -> (thumbor: [PixelBuffer], watermark: PixelBuffer?, chained: [PixelBuffer?]) {
        var budget = maxSourcePixels
        func decoded(_ data: Data) throws(ProcessingError) -> PixelBuffer {
            guard budget > 0 else { throw .unprocessable("the overlays' images are over \(maxSourcePixels) pixels together") }
            do throws(ImageCodingError) {
                let pixels = try AuxiliaryImages.firstFrame(of: data, coders: manager.coders, maxPixels: budget).pixels
                budget -= pixels.width * pixels.height
                return pixels
            } catch {
                throw error.isUnusableData ? .watermarkFailed(error.description) : .unprocessable("an overlay image: \(error.description)")
            }
        }
        var thumbor: [PixelBuffer] = []
        for mark in overlays.thumbor { thumbor.append(try decoded(mark)) }
        func faded(_ data: Data?) throws(ProcessingError) -> PixelBuffer? {
            guard let data else { return nil }
            return AuxiliaryImages.faded(try decoded(data), by: auxiliary.watermarkOpacity)
        }
        var chained: [PixelBuffer?] = []
        for data in overlays.chained { chained.append(try faded(data)) }
        return (thumbor, try faded(overlays.watermark), chained)
    }

    /// `data` decoded as `options` allow: reduced on load when they do, at most the
    /// configuration's `maxAnimationFrames` frames (the first alone when the output cannot move),
    /// within the source pixel limits, which are checked from the header first; the URL's
    /// security options override those limits.
    private func decode(_ data: Data, options: ProcessingOptions) throws(ImageCodingError) -> Image {
        var decodeOptions = Self.decodeOptions(for: options)
        let overrides = options.sourceLimits
        let sourcePixels = overrides.maxSrcResolution.map { Int($0 * 1_000_000) } ?? maxSourcePixels
        decodeOptions.maxPixels = sourcePixels
        // The source's own size counts, from its header, as imgproxy counts it: a shrink on load
        // would let a huge source through while every frame is decoded at full size.
        decodeOptions.maxSourcePixels = sourcePixels
        let framePixels = Int((overrides.maxAnimationFrameResolution ?? limits.maxAnimationFrameResolution) * 1_000_000)
        decodeOptions.maxAnimationFramePixels = framePixels > 0 ? framePixels : nil
        let maxAnimationFrames = overrides.maxAnimationFrames ?? limits.maxAnimationFrames
        decodeOptions.maxFrameCount = maxAnimationFrames
        // A still result of one frame but the first (`page`, `pages`) decodes the frames up to it.
        decodeOptions.firstFrameOnly = isStill(options) && options.page == 0 && options.pages == 1
        drawVector(data, at: options, decodeOptions: &decodeOptions)
        return try manager.coders.decode(data, options: decodeOptions)
    }

    /// Whether the result is one frame whatever the source: thumbor's `cover`, imgproxy's
    /// `disable_animation`, a still output format, or animations limited to one frame.
    func isStill(_ options: ProcessingOptions) -> Bool {
        let maxAnimationFrames = options.sourceLimits.maxAnimationFrames ?? limits.maxAnimationFrames
        return options.firstFrameOnly || options.disablesAnimation
            || !(maxAnimationFrames > 1 && options.format.map(OutputEncoder.animatedFormats.contains) ?? true)
    }

    /// Decode options that shrink the source on load when the whole output is known to fit a
    /// box no larger than the source: `fit`, or one side given (but not `force`). Not with a crop, whose pixel
    /// sizes refer to the full-size source, nor with `enlarge`, nor when the options forbid it.
    static func decodeOptions(for options: ProcessingOptions) -> ImageDecodeOptions {
        var decode = ImageDecodeOptions()
        if !options.stripColorProfile { decode.colorManagement = .preserve }
        decode.embeddedThumbnail = options.enforceThumbnail
        // Trim, zoom and the smallest sizes measure the full-size source; a decoder's reduction
        // would mix sRGB values where linear light is asked for.
        guard options.shrinksOnLoad, !options.linearLight, options.crop == nil, options.trim == nil, options.meta == nil, !options.enlarge, options.width > 0 || options.height > 0,
              options.zoomX == 1, options.zoomY == 1, options.minWidth == 0, options.minHeight == 0,
              !options.widthFromSource, !options.heightFromSource, !options.adaptsToOrientation else { return decode }
        let requested = options.requestedDevicePixels
        let oneSide = requested.width == 0 || requested.height == 0
        // A force with one side keeps the other side of the source: no box bounds it.
        guard (oneSide && options.resizingType != .force) || options.resizingType == .fit else { return decode }
        let box = PixelSize(width: requested.width == 0 ? Int(Int32.max) : requested.width,
                            height: requested.height == 0 ? Int(Int32.max) : requested.height)
        // The box is the output's; the decoder measures the source before the rotation.
        decode.thumbnailPixelSize = options.rotatesOnSide ? PixelSize(width: box.height, height: box.width) : box
        return decode
    }

    /// The source's bytes `data` (of `format`) as they are, when the options ask for them: `raw`,
    /// or a format in `skip_processing` with no other output format asked; nil otherwise.
    static func skipped(_ data: Data, format: ImageFormat, options: ProcessingOptions) -> ProcessedImage? {
        let unnamed = options.format == nil && (!options.bestFormat || options.bestFormatSettings.allowSkips)
        let skips = options.raw || (options.skipProcessing.contains(format) && (unnamed || options.format == format))
        guard skips, format != .undefined else { return nil }
        return ProcessedImage(data: data, format: format)
    }

    /// The largest blur radius allowed on a result at the pixel limit; a smaller result may
    /// take a larger radius, in proportion (result pixels × radius is what is bounded).
    static let blurSigmaAtResultLimit = 10.0
}
