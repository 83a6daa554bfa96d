/// How a coder turns an ``Image`` into bytes, with SDWebImage's `SDImageCoderEncode*` options.
///
/// ``ImageCoders/encode(_:as:options:)`` applies the size options for every coder: the image is
/// first shrunk to ``maxPixelSize``, flattened onto ``backgroundColor`` when the format has no
/// alpha, then encoded, and encoded again smaller while over ``maxFileSize``.
public struct ImageEncodeOptions: Sendable, Hashable {
    /// Quality from 0 (smallest) to 1 (best) for lossy formats (JPEG, lossy WebP). 0.9 by default.
    public var quality: Double
    /// Encode WebP losslessly.
    public var lossless: Bool
    /// Encode only the first frame of an animated image.
    public var firstFrameOnly: Bool
    /// The colour translucent pixels are composited over when the format stores no alpha
    /// (JPEG): white by default, as SDWebImage's `SDImageCoderEncodeBackgroundColor`. Its own
    /// alpha is ignored: the background is opaque.
    public var backgroundColor: RGBA
    /// The largest output in bytes, or nil for no limit (SDWebImage's
    /// `SDImageCoderEncodeMaxFileSize`): the quality is lowered step by step down to 0.1, then,
    /// if ``shrinksToFitFileSize``, the pixel size, until the output fits. The smallest attempt
    /// is returned when nothing fits.
    public var maxFileSize: Int?
    /// Whether ``maxFileSize`` may lower the pixel size once the lowest quality is still too
    /// large. True by default; imgproxy's `max_bytes` lowers only the quality.
    public var shrinksToFitFileSize: Bool
    /// The largest width and height of the output, or nil for no limit (SDWebImage's
    /// `SDImageCoderEncodeMaxPixelSize`): a larger image is scaled down to fit inside both,
    /// keeping its aspect ratio (5250×3450 under 4000×4000 becomes 4000×2629). Never scales up.
    public var maxPixelSize: PixelSize?
    /// A TIFF-structured EXIF block the file carries (JPEG's `Exif` APP1 segment, PNG's `eXIf`
    /// chunk, WebP's `EXIF` chunk, AVIF's and HEIC's `Exif` item; GIF, JPEG XL, TIFF and BMP
    /// leave it out), or nil for none: what a server keeps of a source's
    /// metadata, such as its copyright (``EXIF/copyright(fromTIFF:)``). Written as given: its
    /// orientation, if any, is not applied to the pixels.
    public var exif: [UInt8]?
    /// Whether a JPEG is written in progressive scans (imgproxy's `IMGPROXY_JPEG_PROGRESSIVE`,
    /// thumbor's `PROGRESSIVE_JPEG`) and a still PNG Adam7-interlaced (`IMGPROXY_PNG_INTERLACED`),
    /// which a browser shows coarse first; baseline and not interlaced by default. Other formats
    /// ignore it.
    public var progressive = false
    /// The most colours of a palette image the file is written as, 2…256, where the coder can
    /// (a still PNG, given a ``PaletteQuantizer``; imgproxy's `IMGPROXY_PNG_QUANTIZE` with
    /// `IMGPROXY_PNG_QUANTIZATION_COLORS`), or nil for truecolour. Other formats ignore it.
    public var paletteColors: Int?
    /// How JPEG and AVIF sample chroma (imgproxy's `IMGPROXY_JPEG_NO_SUBSAMPLE`,
    /// `IMGPROXY_AVIF_SUBSAMPLE`): the coder's own rule by default.
    public var chromaSubsampling = ChromaSubsampling.automatic
    /// Whether a WebP is written losslessly after libwebp's near-lossless preprocessing, which
    /// rounds pixel values as far as ``quality`` allows (imgproxy's `near_lossless` WebP
    /// compression); off by default. ``lossless`` is exact.
    public var nearLossless = false
    /// Whether a lossy WebP converts RGB to YUV with libwebp's sharp, iterative method, which
    /// keeps colour edges crisper and takes longer (imgproxy's `IMGPROXY_WEBP_SMART_SUBSAMPLE`).
    public var sharpYUV = false
    /// What the image shows, for encoders that tune by it (WebP's presets), over the coder's
    /// own setting; nil keeps the coder's.
    public var contentKind: ImageContentKind?
    /// The density written where the format records one (JPEG's JFIF header, PNG's `pHYs`), in
    /// dots per inch, or nil for the encoder's default (JPEG: none; PNG: no `pHYs`).
    public var dotsPerInch: Int?

    /// Options with the given values.
    public init(quality: Double = 0.9, lossless: Bool = false, firstFrameOnly: Bool = false,
                backgroundColor: RGBA = .white, maxFileSize: Int? = nil, shrinksToFitFileSize: Bool = true,
                maxPixelSize: PixelSize? = nil) {
        self.quality = quality
        self.lossless = lossless
        self.firstFrameOnly = firstFrameOnly
        self.backgroundColor = backgroundColor
        self.maxFileSize = maxFileSize
        self.shrinksToFitFileSize = shrinksToFitFileSize
        self.maxPixelSize = maxPixelSize
    }
}
