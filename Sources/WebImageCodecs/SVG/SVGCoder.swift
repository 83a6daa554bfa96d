import Foundation
import WebImage

/// Draws SVG documents with librsvg at the size they are asked for, on a transparent canvas.
///
/// A vector source has no pixels of its own, so it is drawn at the target size rather than
/// drawn small and enlarged: with ``ImageDecodeOptions/thumbnailPixelSize`` it is drawn to fit
/// that box (or fill it exactly, without ``ImageDecodeOptions/preserveAspectRatio``), larger
/// than its intrinsic size when the box is larger, as SDWebImageSVGCoder does; without a box, at
/// its intrinsic size (`width`/`height`, absolute units at ``dpi``, else the `viewBox`). A size over
/// ``ImageDecodeOptions/maxPixels`` (or 32 767 pixels a side, cairo's limit) is drawn at the
/// largest size within it, keeping the aspect ratio, as imgproxy shrinks a vector to its
/// resolution limit; ``ImageDecodeOptions/maxSourcePixels`` does not apply, since the source
/// declares no pixels. ``ImageDecodeOptions/scaleDownLimitBytes`` applies as to any image.
///
/// The bytes are hostile input: ``SVGSanitizer`` (``SVGSanitizer/Policy-swift.enum/rendering``)
/// reads them first, under ``limits``, and librsvg only ever sees its rewrite, which refers to
/// nothing outside itself; filters are refused when their work at the drawing's size exceeds
/// ``SVGLimits/maxFilterWork``. Decoding only: ``canEncode(_:)`` is false (a server that answers SVG
/// with SVG sends the sanitized source, see ``SVGSanitizer/Policy-swift.enum/serving``).
public struct SVGCoder: ImageCoder, ImageHeaderReading {
    /// The bounds documents are held to before they are parsed.
    public let limits: SVGLimits
    /// The pixels an inch of a document's absolute units (`in`, `cm`, `mm`, `pt`, `pc`) counts
    /// for: CSS's 96 by default (thumbor's `SVG_DPI` is 150).
    public let dpi: Double

    /// A coder holding documents to `limits`, drawing their absolute units at `dpi` (clamped to 1…9600).
    public init(limits: SVGLimits = SVGLimits(), dpi: Double = 96) {
        self.limits = limits
        self.dpi = dpi.isNaN ? 96 : min(max(dpi, 1), 9600)
    }

    /// Whether `data` looks like an SVG document (`<svg`, or an XML prolog before one).
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat(detecting: data) == .svg
    }

    /// Draws `data` at ``renderSize(intrinsic:options:)``.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws -> Image {
        let (document, filterRuns) = try load(data)
        let size = try Self.renderSize(intrinsic: document.intrinsicSize, options: options)
        let work = filterRuns.multipliedReportingOverflow(by: size.area)
        guard !work.overflow, work.partialValue <= limits.maxFilterWork else {
            throw ImageCodingError.unsupportedFeature(.svg, "filters that would run \(filterRuns) times over \(size) pixels, "
                + "more work than the limit of \(limits.maxFilterWork) primitive-pixels")
        }
        return Image(pixels: try document.render(at: size), scale: options.scaleFactor, format: .svg)
    }

    /// The intrinsic size, rounded up to whole pixels, and one frame.
    public func readHeader(_ data: Data) throws -> ImageHeader {
        let (width, height) = try load(data).document.intrinsicSize
        try Self.checkArea(width, height)
        return ImageHeader(format: .svg, pixelSize: PixelSize(width: Self.wholePixels(width, limit: Double(Int32.max)),
                                                              height: Self.wholePixels(height, limit: Double(Int32.max))))
    }

    /// Always false: this coder does not encode.
    public func canEncode(_ format: ImageFormat) -> Bool { false }

    /// Always throws ``ImageCodingError/noEncoder(_:)``.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        throw ImageCodingError.noEncoder(format)
    }

    /// The size `options` asks for a document of `intrinsic` size (in CSS pixels), in whole
    /// pixels: fitted to (or, without preserving the aspect ratio, filling) the thumbnail box,
    /// shrunk to the byte limit, then to ``ImageDecodeOptions/maxPixels`` and cairo's side limit.
    public static func renderSize(intrinsic: (width: Double, height: Double), options: ImageDecodeOptions)
        throws(ImageCodingError) -> PixelSize {
        try checkArea(intrinsic.width, intrinsic.height)
        var (width, height) = intrinsic
        if let box = options.thumbnailPixelSize, box.width > 0, box.height > 0 {
            let (sx, sy) = (Double(box.width) / width, Double(box.height) / height)
            if options.preserveAspectRatio {
                (width, height) = (width * min(sx, sy), height * min(sx, sy))
            } else {
                (width, height) = (Double(box.width), Double(box.height))
            }
        }
        var shrink = 1.0
        if let limit = options.scaleDownLimitBytes, limit > 0 {
            shrink = min(shrink, (Double(limit) / (width * height * 4)).squareRoot())
        }
        if options.maxPixels > 0 {
            shrink = min(shrink, (Double(options.maxPixels) / (width * height)).squareRoot())
        }
        shrink = min(shrink, maxSide / width, maxSide / height)
        return PixelSize(width: wholePixels(width * shrink, limit: maxSide), height: wholePixels(height * shrink, limit: maxSide))
    }

    private static func checkArea(_ width: Double, _ height: Double) throws(ImageCodingError) {
        guard width.isFinite, height.isFinite, width > 0, height > 0 else {
            throw .corrupt(.svg, "the document has no area (\(width) × \(height))")
        }
    }

    /// `side` rounded up to whole pixels (as librsvg advises, so that no partly covered pixel
    /// is cut off), at least 1 and at most `limit`.
    private static func wholePixels(_ side: Double, limit: Double) -> Int {
        Int(max(1, min(limit, side.rounded(.up) - slack(side))))
    }

    /// cairo's largest image surface side.
    private static let maxSide = 32_767.0

    /// 1 when `side` is within a rounding error above a whole number (a scale that should land
    /// on 400 landing on 400.0000001 must not make 401), else 0.
    private static func slack(_ side: Double) -> Double {
        let fraction = side - side.rounded(.down)
        return fraction > 0 && fraction < 1e-6 ? 1 : 0
    }

    /// The document librsvg reads from the rewrite of `data`, and how many times a filter
    /// primitive may run over its drawing.
    private func load(_ data: Data) throws(ImageCodingError) -> (document: SVGDocument, filterRuns: Int) {
        if data.isEmpty { throw .empty }
        guard canDecode(data) else { throw .corrupt(.svg, "not an SVG document (no <svg root)") }
        let (rewritten, filterRuns) = try SVGSanitizer(policy: .rendering, limits: limits).rewrite(data)
        return (try SVGDocument(sanitized: rewritten, dpi: dpi), filterRuns)
    }
}
