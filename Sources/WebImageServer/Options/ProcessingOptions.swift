import Foundation
import WebImage

/// What a URL asks to be done to its source image: an imgproxy URL after presets are expanded and
/// every option is applied in order (a later option overrides an earlier one), or a thumbor URL
/// after its parts and filters are read (``ThumborURLParser``).
///
/// The defaults are imgproxy's: fit, no resize, centre gravity, automatic rotation from the
/// orientation, metadata stripped, the source's format, the default quality.
public struct ProcessingOptions: Sendable, Hashable {
    /// How the image fits into ``width`` × ``height``.
    public var resizingType: ResizingType = .fit
    /// The requested width in pixels (before ``dpr``); 0 follows from the height and the aspect ratio.
    public var width: Int = 0
    /// The requested height in pixels (before ``dpr``); 0 follows from the width and the aspect ratio.
    public var height: Int = 0
    /// The device pixel ratio: ``width`` and ``height`` are multiplied by it.
    public var dpr: Double = 1
    /// Whether a source smaller than the request may be scaled up.
    public var enlarge = false
    /// Whether an output smaller than the request is padded to the requested size (with
    /// ``background``, transparent without one), placed by ``extendGravity``.
    public var extend = false
    /// Where ``extend`` places the image on its canvas (never smart); nil centres it with the
    /// spare space halved and floored, as thumbor's `fill` does (imgproxy URLs always say one).
    public var extendGravity: Gravity?
    /// Whether an output of another aspect ratio than the request is padded to that ratio,
    /// without growing past the output, placed by ``extendAspectRatioGravity``.
    public var extendAspectRatio = false
    /// Where ``extendAspectRatio`` places the image (never smart).
    public var extendAspectRatioGravity = Gravity.centre
    /// Where ``ResizingType/fill`` crops the image.
    public var gravity = Gravity.centre
    /// The smallest output width (before ``dpr``), reached by scaling up past ``width`` if need be; 0 for none.
    public var minWidth = 0
    /// The smallest output height (before ``dpr``), reached by scaling up past ``height`` if need be; 0 for none.
    public var minHeight = 0
    /// Factors the horizontal and vertical scales are multiplied by, after the fit.
    public var zoomX = 1.0, zoomY = 1.0
    /// The largest side the result may have, the padding and canvas included, or 0 for no limit.
    public var maxResultDimension = 0
    /// What the whole result is scaled by, canvases included, below 1 (thumbor's `proportion`
    /// filter); 1 leaves it.
    public var resultProportion = 1.0
    /// The server's source limits as the URL overrides them (imgproxy's security options).
    public var sourceLimits = SourceLimitOverrides()
    /// The space added around the result (times ``dpr``).
    public var padding = ProcessingPadding()
    /// Whether the image is mirrored left to right after the rotation.
    public var flipHorizontal = false
    /// Whether the image is mirrored top to bottom after the rotation.
    public var flipVertical = false
    /// The border removed before cropping, or nil for none.
    public var trim: ProcessingTrim?
    /// The unsharp mask's standard deviation in pixels; 0 is no sharpening.
    public var sharpenSigma: Double = 0
    /// The side of the blocks the result is pixelated into; 0 and 1 leave it alone.
    public var pixelateSize = 0
    /// The encoder quality 1…100, or 0 for ``formatQuality``'s or the server's default.
    public var quality = 0
    /// The encoder quality by output format, for a URL without ``quality``.
    public var formatQuality: [ImageFormat: Int] = [:]
    /// The largest result in bytes: the quality is lowered until it fits (or reaches 10); 0 for no limit.
    public var maxBytes = 0
    /// Whether a JPEG result is written progressive (the server's `--jpeg-progressive` for
    /// imgproxy URLs, thumbor's `PROGRESSIVE_JPEG` for thumbor's).
    public var progressiveJPEG = false
    /// The formats a result naming none is written in, in order: the source's when listed, else
    /// the first that suits the image (the server's `--preferred-format`); empty keeps the source's.
    public var preferredFormats: [ImageFormat] = []
    /// Whether a PNG result is Adam7-interlaced (the server's `--png-interlaced` for imgproxy URLs).
    public var interlacedPNG = false
    /// The most colours of a palette PNG result, or nil for truecolour (the server's
    /// `--png-quantize` and `--png-quantization-colors` for imgproxy URLs).
    public var pngPaletteColors: Int?
    /// The palette size `png_options` turns quantizing on with when it names none (the server's
    /// `--png-quantization-colors`).
    public var pngQuantizationColors = 256
    /// The encoders' settings beyond quality (chroma subsampling, WebP compression, density).
    public var encoding = EncoderSettings()
    /// How the quality is chosen when ``quality`` is 0 (imgproxy Pro's `autoquality`).
    public var autoquality = Autoquality()
    /// Whether the result is written in the smallest of the candidate formats that keeps the
    /// picture (imgproxy Pro's `best` format); ``format`` is then nil.
    public var bestFormat = false
    /// The profile the result is converted to and carries (imgproxy Pro's `color_profile`):
    /// `srgb`, or a file name in the server's profiles folder; nil for none.
    public var colorProfile: String?
    /// CSS written as the first child of an SVG source's root (imgproxy Pro's `style`), or nil.
    public var svgStyle: String?
    /// How ``bestFormat`` chooses (the server's `IMGPROXY_BEST_FORMAT_*`).
    public var bestFormatSettings = BestFormatSettings()
    /// Source formats answered with the source's bytes as they are, when no other output format is asked.
    public var skipProcessing: Set<ImageFormat> = []
    /// Whether the file extension of the source URL is ignored rather than taken for ``format``.
    public var raw = false
    /// The output format, or nil for the source's format (or one of ``acceptedFormats``).
    public var format: ImageFormat?
    /// When ``format`` is nil, the formats the client accepts (from `Accept`, in the server's
    /// order of preference) that the result may be written in instead of the source's: the first
    /// for a still image, the first that keeps an animation for an animated one.
    public var acceptedFormats: [ImageFormat] = []
    /// Whether an opaque still PNG is written as JPEG when no format is named or chosen from
    /// `Accept` (thumbor's `AUTO_PNG_TO_JPG` and `autojpg` filter).
    public var opaquePNGToJPEG = false
    /// The ``acceptedFormats`` that ``opaquePNGToJPEG`` goes before (thumbor's order without a
    /// preference ranks it with JPEG: HEIC and PNG); empty: it is the last resort.
    public var formatsOpaquePNGToJPEGOutranks: [ImageFormat] = []
    /// Whether an animation is reduced to its first frame, still in its format (thumbor's
    /// `cover` filter).
    public var firstFrameOnly = false
    /// Whether an animated image keeps its own format rather than one of ``acceptedFormats``
    /// (thumbor's `AUTO_WEBP` never converts an animated GIF; imgproxy writes an animated WebP).
    public var animationsKeepFormat = false
    /// thumbor's `MAX_WIDTH` × `MAX_HEIGHT`: a source past it is shrunk before the crop and
    /// resize, or nil for no bound.
    public var thumborSourceBound: ThumborSourceBound?
    /// The formats the client accepts among those the server enforces (imgproxy's
    /// `IMGPROXY_ENFORCE_*`), in its order of preference: the first that suits the image (AVIF
    /// and JPEG XL not for an animation) is written in place of ``format``.
    public var enforcedFormats: [ImageFormat] = []
    /// The Gaussian blur's standard deviation in pixels; 0 is no blur.
    public var blurSigma: Double = 0
    /// The clockwise rotation in degrees, one of 0, 90, 180 and 270.
    public var rotation = 0
    /// The colour transparent pixels are flattened onto, or nil to keep the transparency.
    public var background: RGBA?
    /// A crop of the source before resizing.
    public var crop: ProcessingCrop?
    /// Whether the orientation from the image's metadata is applied.
    public var autoRotate = true
    /// Whether a WebP result is written losslessly (a thumbor URL's WebP of quality 100, as
    /// thumbor's engine writes it).
    public var webpLossless = false
    /// Whether a HEIC or AVIF source's own embedded thumbnail (the largest) is processed instead
    /// of its main image, whatever its size (imgproxy's `enforce_thumbnail`).
    public var enforceThumbnail = false
    /// Whether resizes mix linear light rather than sRGB-encoded values (imgproxy's
    /// `IMGPROXY_USE_LINEAR_COLORSPACE`): fine patterns keep their brightness. The source is then
    /// decoded at full size, since a decoder's reduction would mix encoded values (imgproxy's
    /// shrink on load does, there).
    public var linearLight = false
    /// Whether a source may be decoded reduced when a smaller decode covers the result (JPEG's
    /// DCT scaling, WebP's scaled decode); off, every source pixel is decoded and resampled
    /// (imgproxy's `IMGPROXY_DISABLE_SHRINK_ON_LOAD`).
    public var shrinksOnLoad = true
    /// Whether the source's EXIF block is left out of the output (but the copyright tags
    /// ``keepCopyright`` keeps), or written made true of the upright result: orientation 1,
    /// the result's size, no thumbnail (imgproxy's `strip_metadata`; thumbor's
    /// `PRESERVE_EXIF_INFO` off, or its `strip_exif` filter).
    public var stripMetadata = true
    /// Whether the source's EXIF copyright tags (Artist, Copyright, DateTime) are written into
    /// a JPEG, PNG, WebP, AVIF or HEIC result (imgproxy's `keep_copyright`, on by default; thumbor's
    /// `PRESERVE_EXIF_COPYRIGHT_INFO`, off by default).
    public var keepCopyright = true
    /// Whether the pixels are converted to sRGB and written without a profile (true, the
    /// default) or keep the source's ICC profile, which the encoder writes again.
    public var stripColorProfile = true
    /// A string that changes the URL, and so the cache key, without changing the image.
    public var cacheBuster: String?
    /// The Unix time after which the URL is refused, or nil for never.
    public var expires: Int?
    /// The file name for `Content-Disposition`, or nil to take it from the source URL.
    public var filename: String?
    /// Whether `Content-Disposition` says `attachment` rather than `inline`.
    public var returnAttachment = false
    /// The flips and quarter turns applied after resizing, written as the EXIF orientation that
    /// applies them: thumbor's `-W`/`-H` flips and `rotate` filter, which act on the resized image.
    public var postResizeOrientation = ImageOrientation.up
    /// Whether the output is turned grey (thumbor's `grayscale` filter), keeping alpha.
    public var grayscale = false
    /// Whether ``width`` is the source's width (after crop and trim): thumbor's `orig` side.
    public var widthFromSource = false
    /// Whether ``height`` is the source's height (after crop and trim): thumbor's `orig` side.
    public var heightFromSource = false
    /// Whether the requested width and height swap when one is portrait and the source
    /// landscape or the other way round (thumbor's `adaptive-fit-in`).
    public var adaptsToOrientation = false
    /// Whether ``ResizingType/fill`` crops what overflows the box (true, the default) or keeps
    /// the whole scaled image, covering the box (thumbor's `full-fit-in`).
    public var cropsFill = true
    /// The `Cache-Control` max-age in seconds for this URL's answer (thumbor's `max_age`), or
    /// nil for the server's; 0 answers `no-cache`. Not part of ``canonicalKey``: the bytes are the same.
    public var maxAge: Int?
    /// Whether ``background`` is replaced by the mean colour of the resized image (thumbor's `fill(auto)`).
    public var backgroundIsAverage = false
    /// The radius in pixels of the result's rounded corners (thumbor's `round_corner`), 0 for square.
    public var cornerRadius = 0
    /// The vertical radius of elliptical corners (thumbor's `round_corner(a|b,…)`, ``cornerRadius``
    /// across and this down), or nil for circular ones.
    public var cornerVerticalRadius: Int?
    /// The colour outside the rounded corners, or nil to leave them transparent.
    public var cornerFill: RGBA?
    /// The colour adjustments applied after the resize, in order (thumbor's `brightness`,
    /// `contrast`, `rgb`, `saturation`, `noise` and `equalize` filters).
    public var colorAdjustments: [ColorAdjustment] = []
    /// The aspect ratio (width over height) ``crop``'s area is corrected to, 0 for none
    /// (imgproxy's `crop_aspect_ratio`); the area's place stays the crop's gravity's.
    public var cropAspectRatio: Double = 0
    /// Whether the correction grows the area rather than shrinking it (within the image).
    public var cropAspectRatioEnlarges = false
    /// The frame a still result is made of (imgproxy's `page`), from 0.
    public var page = 0
    /// How many frames from ``page`` a still result stacks top to bottom (imgproxy's `pages`).
    public var pages = 1
    /// Whether an animation makes a still result (imgproxy's `disable_animation`).
    public var disablesAnimation = false
    /// The digest the source must have (imgproxy's `hashsum`), or nil.
    public var requiredHashsum: RequiredHashsum?
    /// The resize's kernel (imgproxy's `resizing_algorithm`): Lanczos-3 by default, as imgproxy's.
    public var resizingAlgorithm = ResamplingFilter.lanczos3
    /// imgproxy's `brightness`, `contrast` and `saturation` (`adjust`), applied in that order
    /// after thumbor's ``colorAdjustments``; their defaults change nothing.
    public var brightness = 0
    /// imgproxy's `contrast` factor; 1 changes nothing.
    public var contrast: Double = 1
    /// imgproxy's `saturation` factor; 1 changes nothing.
    public var saturation: Double = 1
    /// imgproxy's `monochrome` and `duotone`, applied after the adjustments in that order; nil for none.
    public var monochrome: DuotoneTransformer?
    /// imgproxy's `duotone`; nil for none.
    public var duotone: DuotoneTransformer?
    /// imgproxy's `colorize` and `gradient` overlays, laid after the duotones in that order; nil for none.
    public var colorize: ColorOverlayTransformer?
    /// imgproxy's `gradient` overlay; nil for none.
    public var gradient: ColorOverlayTransformer?
    /// imgproxy's `background_alpha`: the opacity of ``background``, 0…1.
    public var backgroundAlpha: Double = 1
    /// imgproxy's `unsharp_masking`: when the result is sharpened by a 3 × 3 unsharp mask, and
    /// how strongly; the server's `IMGPROXY_UNSHARP_MASKING_*` by default.
    public var unsharpMasking = UnsharpMasking()
    /// imgproxy's `blur_areas`: areas of the source blurred in the result, or nil for none.
    public var blurAreas: BlurAreas?
    /// imgproxy's `progressive_blur`: a blur growing across the result, or nil for none.
    public var progressiveBlur: ProgressiveBlurTransformer?
    /// imgproxy's `bypass_cache`: the result is made from a fresh download, neither read from
    /// nor written to the result tiers (allowed by `IMGPROXY_ALLOW_BYPASS_CACHE` only).
    public var bypassesCache = false
    /// imgproxy's `cache_tags`: the tags answered in the headers
    /// `IMGPROXY_CACHE_TAGS_FORMAT` names. They do not change the image, and are not in the key.
    public var cacheTags: [String] = []
    /// imgproxy Pro's `watermark_url`: the watermark's image, in place of the configured one, or nil.
    public var watermarkURL: URL?
    /// imgproxy Pro's `watermark_text`: Pango markup drawn as the watermark, over ``watermarkURL``'s image, or nil.
    public var watermarkText: String?
    /// imgproxy Pro's `watermark_size`, `watermark_rotate` and `watermark_shadow`.
    public var watermarkStyle = WatermarkStyle()
    /// imgproxy Pro's `fallback_image_url`: the image answered when the source cannot be loaded,
    /// in place of the configured fallback, or nil.
    public var fallbackImageURL: URL?
    /// The configured watermark laid over the result, or nil for none.
    public var watermark: ProcessingWatermark?
    /// imgproxy Pro's chained pipelines (after `/-/`), in order: each processes the result of the
    /// one before, these options' own processing first. Their options about the source and the
    /// answer (format, quality, limits, caching: the URLOptions article lists them) are these options'.
    public var chained: [ProcessingOptions] = []
    /// The pipeline the options read now go to: 0 for these, `n` for `chained[n - 1]`.
    var pipelineCursor = 0
    /// thumbor's `watermark` and `frame` filters, each image loaded from its URL and laid over
    /// the result in order.
    public var thumborOverlays: [ThumborOverlay] = []
    /// The convolutions applied after the colour adjustments, in order (thumbor's `convolution` filter).
    public var convolutions: [ConvolutionTransformer] = []
    /// Whether the canvas ``extend`` adds is filled with the image itself, blurred (sigma 50) and
    /// stretched to the canvas, instead of ``background`` (thumbor's `fill(blur)`).
    public var fillsWithBlur = false
    /// thumbor's focal points: areas of the source (after the orientation, before ``crop``) that
    /// the fill crop centres on, by their centre weighted by their area, in place of ``gravity``
    /// (thumbor's `focal` and `extract_focal` filters).
    public var focalRegions: [PixelRect] = []
    /// The video container a GIF result is asked in (`mp4` or `webm`, thumbor's `gifv` filter),
    /// or nil. This server has no video encoder: a GIF result asked so is refused (422), and a
    /// result in any other format is made as without it, as thumbor's gifv optimizer leaves it.
    public var gifVideo: String?
    /// When set, the answer is thumbor's JSON description of the operations rather than the
    /// image (thumbor's `meta`).
    public var meta: ProcessingMeta?
    /// When set, the answer is imgproxy's `/info` JSON description of the source rather than an image.
    public var info: InfoOptions?
    /// Whether the answer describes the source (thumbor's `meta`, imgproxy's `/info`) rather
    /// than being an image: no format is negotiated for it.
    var describesSource: Bool { meta != nil || info != nil }

    /// Options with every default.
    public init() {}

    /// The options that change the output bytes, spelled in one fixed order with normalised
    /// numbers, so that URLs that differ only in option order, short or long names, presets or
    /// spelling (`1` and `true`) share one cache entry. The signature, ``expires``, ``filename``
    /// and ``returnAttachment`` do not change the image and are left out.
    public var canonicalKey: String {
        var parts = [
            "rs:\(resizingType.rawValue):\(width):\(height):\(enlarge ? 1 : 0):\(extend ? 1 : 0)",
            "dpr:\(CanonicalNumber.spell(dpr))",
            "g:\(gravity.canonical)",
            "q:\(quality)",
            "f:\(format?.rawValue ?? (["source"] + acceptedFormats.map(\.rawValue)).joined(separator: ","))"
                + (animationsKeepFormat && format == nil && !acceptedFormats.isEmpty ? "!anim" : "")
                + (enforcedFormats.isEmpty ? "" : ";" + enforcedFormats.map(\.rawValue).joined(separator: ",")),
            "bl:\(CanonicalNumber.spell(blurSigma))",
            "rot:\(rotation)",
            "ar:\(autoRotate ? 1 : 0)",
            "sm:\(stripMetadata ? 1 : 0)",
        ]
        if let background {
            parts.append("bg:\(background.r):\(background.g):\(background.b)")
        }
        if let crop {
            parts.append("c:\(CanonicalNumber.spell(crop.width)):\(CanonicalNumber.spell(crop.height)):"
                + (crop.gravity?.canonical ?? "main"))
        }
        if let cacheBuster {
            parts.append("cb:\(cacheBuster)")
        }
        if postResizeOrientation != .up {
            parts.append("por:\(postResizeOrientation.rawValue)")
        }
        if grayscale {
            parts.append("gs:1")
        }
        parts.append(contentsOf: geometryKeyParts)
        parts.append(contentsOf: outputKeyParts)
        for step in chained { parts.append("-/" + step.canonicalKey) }
        return parts.joined(separator: "/")
    }
}
