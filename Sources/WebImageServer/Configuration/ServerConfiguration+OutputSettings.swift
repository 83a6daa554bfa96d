import WebImage
import WebImageCodecs

extension ServerConfiguration {
    /// What results are made of by default: quality, the formats answered unprocessed, SVG and copyright tags (the URL parsers' defaults and the encoder).
    public struct OutputSettings: Sendable, Equatable {
        /// The encoder quality when a URL gives none, 1…100.
        public var quality = 80
        /// The encoder quality of a format when a URL gives none, over ``quality``
        /// (imgproxy's `IMGPROXY_FORMAT_QUALITY`; the default of imgproxy URLs' `format_quality`).
        public var formatQuality: [ImageFormat: Int] = [:]
        /// Whether JPEG results of imgproxy URLs are written progressive (imgproxy's
        /// `IMGPROXY_JPEG_PROGRESSIVE`, off by default).
        public var jpegProgressive = false
        /// Whether JPEG results of thumbor URLs are (thumbor's `PROGRESSIVE_JPEG`, on by default).
        public var thumborProgressiveJPEG = true
        /// Whether the images of thumbor URLs are turned upright by their EXIF orientation
        /// (thumbor's `RESPECT_ORIENTATION`; off in thumbor, on here, as imgproxy's `IMGPROXY_AUTO_ROTATE`).
        public var thumborRespectOrientation = true
        /// Whether PNG results of imgproxy URLs are Adam7-interlaced (imgproxy's
        /// `IMGPROXY_PNG_INTERLACED`, off by default).
        public var pngInterlaced = false
        /// Whether PNG results of imgproxy URLs are palette PNGs of at most
        /// ``pngQuantizationColors`` colours (imgproxy's `IMGPROXY_PNG_QUANTIZE`, off by default).
        public var pngQuantize = false
        /// The most colours of those palettes, 2…256 (imgproxy's `IMGPROXY_PNG_QUANTIZATION_COLORS`).
        public var pngQuantizationColors = 256
        /// Whether images are turned upright by their EXIF orientation unless a URL says otherwise
        /// (imgproxy's `IMGPROXY_AUTO_ROTATE`).
        public var autoRotate = true
        /// Whether results are converted to sRGB and written without an ICC profile unless a URL
        /// says otherwise (imgproxy's `IMGPROXY_STRIP_COLOR_PROFILE`).
        public var stripColorProfile = true
        /// Sources of these formats are answered with their own bytes unless a URL asks for
        /// another format (imgproxy's `IMGPROXY_SKIP_PROCESSING_FORMATS`); a URL's `skp` replaces them.
        public var skipProcessingFormats: [ImageFormat] = []
        /// The formats results of imgproxy URLs naming none are written in, in order (imgproxy's
        /// `IMGPROXY_PREFERRED_FORMATS`): the source's when it is one of them, else the first that
        /// suits the image (alpha, animation); empty, the default here, keeps the source's format
        /// (imgproxy's default list is `jpeg,png,gif`, which turns a WebP source into JPEG).
        public var preferredFormats: [ImageFormat] = []
        /// Whether SVG sources are drawn when a URL names no format, rather than answered as
        /// sanitized SVG (imgproxy's `IMGPROXY_ALWAYS_RASTERIZE_SVG`).
        public var alwaysRasterizeSVG = false
        /// Whether imgproxy URLs keep a source's EXIF copyright tags in JPEG, PNG, WebP, AVIF and HEIC results unless
        /// their `kcr` says otherwise (imgproxy's `IMGPROXY_KEEP_COPYRIGHT`, on by default).
        public var keepCopyright = true
        /// Whether thumbor URLs keep them (thumbor's `PRESERVE_EXIF_COPYRIGHT_INFO`, off by default).
        public var thumborPreserveExifCopyrightInfo = false
        /// Whether imgproxy URLs process a HEIC or AVIF source's embedded thumbnail instead of its
        /// main image unless their `eth` says otherwise (imgproxy's `IMGPROXY_ENFORCE_THUMBNAIL`).
        public var enforceThumbnail = false
        /// Whether results of imgproxy URLs are resized in linear light (imgproxy's
        /// `IMGPROXY_USE_LINEAR_COLORSPACE`): fine patterns keep their brightness; slower.
        public var useLinearColorspace = false
        /// Whether sources of imgproxy URLs are decoded at full size even when a smaller decode
        /// covers the result (imgproxy's `IMGPROXY_DISABLE_SHRINK_ON_LOAD`): slower, more memory,
        /// every pixel of the source resampled.
        public var disableShrinkOnLoad = false
        /// Whether results of imgproxy URLs drop their source's EXIF block unless their `sm` says
        /// otherwise (imgproxy's `IMGPROXY_STRIP_METADATA`, on by default); kept, the block is
        /// made true of the upright result (`EXIF.upright(fromTIFF:width:height:)`).
        public var stripMetadata = true
        /// Whether results of thumbor URLs keep their source's EXIF block, made true of the
        /// result, unless the `strip_exif` filter says otherwise (thumbor's `PRESERVE_EXIF_INFO`, off by default).
        public var thumborPreserveExifInfo = false
        /// The pixels an inch of an SVG source's absolute units counts for (thumbor's `SVG_DPI`;
        /// CSS's 96 by default).
        public var svgDPI = 96.0
        /// libwebp's effort for WebP results, 1…6 (imgproxy's `IMGPROXY_WEBP_EFFORT`).
        public var webpEffort = 4
        /// The libwebp preset lossy WebP results start from (imgproxy's `IMGPROXY_WEBP_PRESET`).
        public var webpPreset = WebPEncodingPreset.default
        /// libavif's speed for AVIF results, 0 (smallest) to 9 (imgproxy's `IMGPROXY_AVIF_SPEED`).
        public var avifSpeed = 8
        /// libjxl's effort for JPEG XL results, 1…9 (imgproxy's `IMGPROXY_JXL_EFFORT`; 4, where
        /// the library's own coder uses libjxl's 7).
        public var jxlEffort = 4
        /// The unsharp mask imgproxy URLs start from (imgproxy's `IMGPROXY_UNSHARP_MASKING_MODE`,
        /// `_WEIGHT` and `_DIVIDER`; off here unless set, where imgproxy Pro's mode is `auto`).
        public var unsharpMasking = UnsharpMasking()
        /// The encoders' settings imgproxy URLs start from (imgproxy's `IMGPROXY_JPEG_NO_SUBSAMPLE`,
        /// `IMGPROXY_WEBP_COMPRESSION`, `_WEBP_SMART_SUBSAMPLE`, `_AVIF_SUBSAMPLE`).
        public var encoding = EncoderSettings()
        /// How imgproxy URLs' qualities are chosen when they name none (imgproxy's `IMGPROXY_AUTOQUALITY_*`).
        public var autoquality = Autoquality()
        /// How imgproxy URLs' `best` format chooses (imgproxy's `IMGPROXY_BEST_FORMAT_*`).
        public var bestFormat = BestFormatSettings()
        /// The folder imgproxy URLs' `color_profile` names profiles in (imgproxy's `IMGPROXY_COLOR_PROFILES_DIR`).
        public var colorProfilesDir = "/usr/share/color/icc"

        /// The settings above that change every result's bytes without being part of its URL's
        /// key — the default quality, SVG's dpi and the encoders' efforts — each that differs from
        /// its default, as `q80.we6`; empty with the defaults. Kept results are tagged with it.
        public var encodingTag: String {
            let defaults = OutputSettings()
            let parts: [String?] = [
                quality == defaults.quality ? nil : "q\(quality)",
                svgDPI == defaults.svgDPI ? nil : "dpi\(svgDPI)",
                webpEffort == defaults.webpEffort ? nil : "we\(webpEffort)",
                webpPreset == defaults.webpPreset ? nil : "wp\(webpPreset.rawValue)",
                avifSpeed == defaults.avifSpeed ? nil : "as\(avifSpeed)",
                jxlEffort == defaults.jxlEffort ? nil : "je\(jxlEffort)",
            ]
            return parts.compactMap { $0 }.joined(separator: ".")
        }

        /// The defaults.
        public init() {}
    }
}
