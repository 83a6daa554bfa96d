import Foundation
import WebImage
import WebImageCodecs

/// SVG sources, as imgproxy treats them: answered as SVG (sanitized) when SVG or no format is
/// asked for, and otherwise drawn at the size the resize needs, which may be larger than the
/// document's own size whatever `enlarge` says (a vector has no pixels to enlarge).
extension ImageProcessor {
    /// The answer to a request for the source `data` as SVG: when the source is SVG and the
    /// request asks for SVG or, unless the server `rasterizesUnnamed` (`--always-rasterize-svg`),
    /// for no format, its bytes rewritten by ``SVGSanitizer`` (scripts, event handlers and `<use>`
    /// of other documents removed); nil otherwise, for the usual processing. A source too hostile
    /// to sanitize is unprocessable.
    /// `data` with `options`' `style` (imgproxy Pro's) as the first child of its root, sanitized
    /// as a served SVG is, when it is an SVG document and a style is given; as it is otherwise.
    static func styled(_ data: Data, options: ProcessingOptions) throws(ProcessingError) -> Data {
        guard let style = options.svgStyle, ImageFormat(detecting: data) == .svg else { return data }
        do {
            return try SVGSanitizer(policy: .serving).sanitize(data, prependingStyle: style)
        } catch {
            throw .unprocessable(error.description)
        }
    }

    static func sanitizedSVG(_ data: Data, options: ProcessingOptions, rasterizesUnnamed: Bool) throws(ProcessingError)
        -> ProcessedImage? {
        let unnamed = options.format == nil && (!options.bestFormat || options.bestFormatSettings.allowSkips)
        let asksSVG = options.format == .svg || (unnamed && !rasterizesUnnamed)
        guard asksSVG, ImageFormat(detecting: data) == .svg else { return nil }
        do {
            return ProcessedImage(data: try SVGSanitizer(policy: .serving).sanitize(data), format: .svg)
        } catch {
            throw .unprocessable(error.description)
        }
    }

    /// Sets `decodeOptions` to draw an SVG source `data` at the size `options` resize it to
    /// (``vectorSize(intrinsic:options:)``), so that the resize finds it at that size already:
    /// a `fill`, `force` or enlarging resize of a small document is drawn large, not enlarged.
    /// A source with a crop is drawn at its intrinsic size: the crop's pixels are the
    /// document's. Other sources, and documents whose size cannot be read, are left as they are.
    func drawVector(_ data: Data, at options: ProcessingOptions, decodeOptions: inout ImageDecodeOptions) {
        guard ImageFormat(detecting: data).isVector, options.crop == nil,
              let header = try? manager.coders.header(of: data),
              let size = Self.vectorSize(intrinsic: header.pixelSize, options: options) else { return }
        decodeOptions.thumbnailPixelSize = size
        decodeOptions.preserveAspectRatio = false
    }

    /// The size a vector of `intrinsic` size is drawn at for `options`: the size the resize
    /// scales it to, enlarging allowed; nil when the options do not resize.
    static func vectorSize(intrinsic: PixelSize, options: ProcessingOptions) -> PixelSize? {
        guard options.width > 0 || options.height > 0 else { return nil }
        var enlarging = options
        enlarging.enlarge = true
        let turned = options.rotatesOnSide
        let source = turned ? PixelSize(width: intrinsic.height, height: intrinsic.width) : intrinsic
        let scaled = ResizePlan(options: enlarging, source: source).scaled
        return turned ? PixelSize(width: scaled.height, height: scaled.width) : scaled
    }
}
