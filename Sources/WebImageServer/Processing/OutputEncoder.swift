import Foundation
import WebImage

/// Writes results: chooses the output format (what the URL names, what `Accept` allows,
/// what the image can be written in) and the quality, and encodes.
struct OutputEncoder: Sendable {
    /// Encodes results.
    let coders: ImageCoders
    /// The quality of formats the URL sets none for (``ServerConfiguration/OutputSettings/quality``).
    let defaultQuality: Int

    /// The formats whose results keep every frame of an animation. AVIF could (its encoder
    /// writes sequences), but as imgproxy it is chosen for still images only: an AVIF sequence
    /// costs many times a WebP animation's encoding time.
    static let animatedFormats: Set<ImageFormat> = [.gif, .webp, .png]

    /// Formats read as sources but answered in only when asked for by name: browsers show
    /// none of them (imgproxy's preferred formats leave them out too).
    static let sourceOnlyFormats: Set<ImageFormat> = [.tiff, .bmp]

    /// The format `image` is written in: the first enforced format that suits it; else the
    /// requested one; else, among the formats the client accepts, the first that suits it (JPEG
    /// for an opaque still PNG when the options rank that higher); else JPEG for such a PNG when
    /// the options say so; else, with preferred formats, the source's when preferred or the first
    /// preferred that suits; else the source's, unless it is one of ``sourceOnlyFormats`` (then
    /// ``fallbackFormat(of:)``).
    /// Any format suits a still image, only ``animatedFormats`` an animation (which
    /// must not stop moving because the client also takes AVIF).
    static func outputFormat(of image: Image, options: ProcessingOptions) -> ImageFormat {
        let animated = image.frames.count > 1
        // JPEG has no alpha: a transparent image is never chosen into it (thumbor's AUTO_JPG).
        let suits = { (format: ImageFormat) in
            (!animated || animatedFormats.contains(format)) && (format != .jpeg || !image.pixels.hasTransparency)
        }
        if let enforced = options.enforcedFormats.first(where: suits) { return enforced }
        if let format = options.format { return format }
        if animated, options.animationsKeepFormat { return image.format }
        let opaquePNGAsJPEG = options.opaquePNGToJPEG && image.format == .png && !animated && !image.pixels.hasTransparency
        if let accepted = options.acceptedFormats.first(where: suits) {
            return opaquePNGAsJPEG && options.formatsOpaquePNGToJPEGOutranks.contains(accepted) ? .jpeg : accepted
        }
        if opaquePNGAsJPEG { return .jpeg }
        if let preferred = options.preferredFormats.first {
            // imgproxy's determineOutputFormat: the source's when preferred, else the first that suits.
            return options.preferredFormats.contains(image.format) ? image.format : options.preferredFormats.first(where: suits) ?? preferred
        }
        return sourceOnlyFormats.contains(image.format) ? fallbackFormat(of: image) : image.format
    }

    /// What an image is written in when its own format is not answered in: PNG for a TIFF (a
    /// lossless source stays lossless, as thumbor answers it; one rule for both URL forms keeps
    /// them one cache entry), a drawing or a transparent image, JPEG for any other.
    static func fallbackFormat(of image: Image) -> ImageFormat {
        image.format == .tiff || image.format.isVector || image.pixels.hasTransparency ? .png : .jpeg
    }

    /// The qualities autoquality searches for `image` in `format`, or nil when it does not
    /// apply: off, a quality in the URL, a format without one (PNG, GIF, lossless WebP), an
    /// animation, a result over its resolution bound, or one under the DSSIM window (11 pixels).
    static func autoqualities(of image: Image, in format: ImageFormat, options: ProcessingOptions) -> ClosedRange<Int>? {
        let autoquality = options.autoquality
        guard autoquality.method != .none, options.quality == 0, Autoquality.lossyFormats.contains(format),
              format != .webp || options.encoding.webpCompression == .lossy, image.frames.count == 1 else { return nil }
        let megapixels = Double(image.pixelWidth * image.pixelHeight) / 1_000_000
        guard autoquality.maxResolution == 0 || megapixels <= autoquality.maxResolution else { return nil }
        guard autoquality.method == .size || (image.pixelWidth >= 11 && image.pixelHeight >= 11) else { return nil }
        return autoquality.qualities(for: format)
    }

    /// `image` encoded in the ``outputFormat(of:options:)`` (the ``fallbackFormat(of:)``
    /// when the source's format cannot be written), carrying the EXIF block `exif` where the
    /// format has a place for it.
    func encode(_ image: Image, options: ProcessingOptions, exif: [UInt8]?) throws(ProcessingError) -> ProcessedImage {
        var format = Self.outputFormat(of: image, options: options)
        if format == .gif, let container = options.gifVideo {
            throw .unsupported("gifv(\(container)): writing a GIF result as video needs a video encoder, which this server does not have")
        }
        if !coders.canEncode(format) {
            guard options.format == nil else { throw .unsupported("no encoder for \(format)") }
            format = Self.fallbackFormat(of: image)
        }
        if options.bestFormat, options.enforcedFormats.isEmpty {
            if let best = try bestEncoding(of: image, options: options, exif: exif, plain: format) { return best }
        }
        return try encoded(image, as: format, options: options, exif: exif)
    }

    /// `image` written as `format` at the quality `options` give (or autoquality chooses, when
    /// `searchesQuality`), losslessly where the format can be when `lossless`, and a WebP when
    /// the options ask for it (``ProcessingOptions/webpLossless``).
    private func encoded(_ image: Image, as format: ImageFormat, options: ProcessingOptions, exif: [UInt8]?,
                         lossless: Bool = false, searchesQuality: Bool = true) throws(ProcessingError) -> ProcessedImage {
        let quality = options.quality > 0 ? options.quality : options.formatQuality[format].flatMap { $0 > 0 ? $0 : nil }
            ?? defaultQuality
        let lossless = lossless || (format == .webp && options.webpLossless)
        do {
            // imgproxy's max_bytes lowers only the quality (down to 10), never the size.
            var encoding = ImageEncodeOptions(quality: Double(quality) / 100, maxFileSize: options.maxBytes > 0 ? options.maxBytes : nil,
                                              shrinksToFitFileSize: false)
            encoding.exif = exif
            encoding.progressive = format == .png ? options.interlacedPNG : options.progressiveJPEG
            encoding.paletteColors = format == .png && !lossless ? options.pngPaletteColors : nil
            var settings = options.encoding.applied(to: encoding, format: format)
            if lossless {
                settings.lossless = true
                settings.nearLossless = false
            }
            if searchesQuality, !lossless, let qualities = Self.autoqualities(of: image, in: format, options: options) {
                let search = AutoqualitySearch(autoquality: options.autoquality, encode: { [coders] quality in
                    var candidate = settings
                    candidate.quality = Double(quality) / 100
                    return try coders.encode(image, as: format, options: candidate)
                }, decode: decodedFirstFrame)
                return ProcessedImage(data: try search.best(of: image.pixels, within: qualities).data, format: format)
            }
            let data = try coders.encode(image, as: format, options: settings)
            return ProcessedImage(data: data, format: format)
        } catch {
            throw .encodingFailed(String(describing: error))
        }
    }

    /// The first frame of an encoded candidate, its colours as written, for its DSSIM.
    private func decodedFirstFrame(_ data: Data) throws -> PixelBuffer {
        var decoding = ImageDecodeOptions()
        decoding.colorManagement = .preserve
        decoding.firstFrameOnly = true
        return try coders.decode(data, options: decoding).pixels
    }

    /// imgproxy Pro's `best` format: `image` written in each of ``BestFormat/candidates(for:options:)``
    /// (losslessly where the format can be, for an image under the complexity threshold), and
    /// the smallest answered among those whose DSSIM is within ``BestFormat/maximumDissimilarity``
    /// or within the `plain` format's (the format the result has without `best`), whichever is
    /// larger: a smaller file never buys a worse picture than the URL would get otherwise (the
    /// closest when none is); over the resolution bound, written in the likeliest alone. Nil
    /// when no candidate can be encoded here.
    private func bestEncoding(of image: Image, options: ProcessingOptions, exif: [UInt8]?, plain: ImageFormat) throws(ProcessingError)
        -> ProcessedImage? {
        let candidates = BestFormat.candidates(for: image, options: options).filter { coders.canEncode($0) }
        guard !candidates.isEmpty else { return nil }
        let settings = options.bestFormatSettings
        let simple = BestFormat.complexity(of: image.pixels) < settings.complexityThreshold
        let megapixels = Double(image.pixelWidth * image.pixelHeight) / 1_000_000
        if settings.maxResolution > 0, megapixels > settings.maxResolution, let format = BestFormat.likeliest(of: candidates, simple: simple) {
            return try encoded(image, as: format, options: options, exif: exif, lossless: simple && BestFormat.writesLosslessly(format))
        }
        var made: [(image: ProcessedImage, dssim: Double)] = []
        for format in candidates {
            let lossless = simple && BestFormat.writesLosslessly(format)
            // Each candidate at its format's quality: an autoquality search in each would multiply the encodes.
            let candidate = try encoded(image, as: format, options: options, exif: exif, lossless: lossless, searchesQuality: false)
            let exact = lossless || (format == .png && options.pngPaletteColors == nil)
            // A candidate that cannot be read back is never chosen.
            let dssim = exact ? 0 : (try? StructuralSimilarity.dissimilarity(of: try decodedFirstFrame(candidate.data), against: image.pixels))
                ?? .infinity
            made.append((candidate, dssim))
        }
        let plainDissimilarity = made.first { $0.image.format == plain }?.dssim ?? 0
        let bound = max(BestFormat.maximumDissimilarity, plainDissimilarity.isFinite ? plainDissimilarity : 0)
        return made.filter { $0.dssim <= bound }.min { $0.image.data.count < $1.image.data.count }?.image
            ?? made.min { $0.dssim < $1.dssim }?.image
    }
}
