/// The processing options this server understands, by imgproxy's long name. The one table of
/// imgproxy options: ``init(spelling:)`` reads it, and the URLOptions article's option table (WebImageServer.docc) is checked against
/// ``documentation`` row for row, so an option added here without its row fails a test.
enum ProcessingOptionName: String, CaseIterable {
    // In the order of imgproxy's processing options reference (its docs' processing.mdx).
    case resize, size, resizingType = "resizing_type", resizingAlgorithm = "resizing_algorithm", width, height
    case minWidth = "min-width", minHeight = "min-height", zoom, dpr, enlarge, extend, extendAspectRatio = "extend_aspect_ratio"
    case gravity, crop, cropAspectRatio = "crop_aspect_ratio", trim, padding, autoRotate = "auto_rotate", rotate, flip
    case background, backgroundAlpha = "background_alpha", adjust, brightness, contrast, saturation, monochrome, duotone
    case blur, sharpen, pixelate, unsharpMasking = "unsharp_masking", blurAreas = "blur_areas", progressiveBlur = "progressive_blur"
    case colorize, gradient, watermark, watermarkURL = "watermark_url", watermarkText = "watermark_text", watermarkSize = "watermark_size"
    case watermarkRotate = "watermark_rotate", watermarkShadow = "watermark_shadow", style
    case stripMetadata = "strip_metadata", keepCopyright = "keep_copyright", dpi, stripColorProfile = "strip_color_profile"
    case preserveHDR = "preserve_hdr", colorProfile = "color_profile", enforceThumbnail = "enforce_thumbnail", quality
    case formatQuality = "format_quality"
    case autoquality, maxBytes = "max_bytes", jpegOptions = "jpeg_options", pngOptions = "png_options", webpOptions = "webp_options"
    case avifOptions = "avif_options", format, page, pages, disableAnimation = "disable_animation", fallbackImageURL = "fallback_image_url"
    case skipProcessing = "skip_processing", raw, cacheBuster = "cachebuster", bypassCache = "bypass_cache", cacheTags = "cache_tags"
    case expires, filename, returnAttachment = "return_attachment", preset, hashsum, maxSrcResolution = "max_src_resolution"
    case maxSrcFileSize = "max_src_file_size", maxAnimationFrames = "max_animation_frames"
    case maxAnimationFrameResolution = "max_animation_frame_resolution", maxResultDimension = "max_result_dimension"
    case pipeline = "-"

    /// The other spellings imgproxy takes for the option, shortest first.
    var shortNames: [String] {
        switch self {
        case .resize: ["rs"]
        case .size: ["s"]
        case .resizingType: ["rt"]
        case .width: ["w"]
        case .height: ["h"]
        case .minWidth: ["mw"]
        case .minHeight: ["mh"]
        case .zoom: ["z"]
        case .enlarge: ["el"]
        case .extend: ["ex"]
        case .extendAspectRatio: ["exar", "extend_ar"]
        case .gravity: ["g"]
        case .crop: ["c"]
        case .trim: ["t"]
        case .padding: ["pd"]
        case .autoRotate: ["ar"]
        case .rotate: ["rot"]
        case .flip: ["fl"]
        case .background: ["bg"]
        case .blur: ["bl"]
        case .sharpen: ["sh"]
        case .pixelate: ["pix"]
        case .stripMetadata: ["sm"]
        case .keepCopyright: ["kcr"]
        case .stripColorProfile: ["scp"]
        case .preserveHDR: ["ph"]
        case .enforceThumbnail: ["eth"]
        case .quality: ["q"]
        case .formatQuality: ["fq"]
        case .maxBytes: ["mb"]
        case .format: ["f", "ext"]
        case .skipProcessing: ["skp"]
        case .cacheBuster: ["cb"]
        case .expires: ["exp"]
        case .filename: ["fn"]
        case .returnAttachment: ["att"]
        case .preset: ["pr"]
        case .maxResultDimension: ["mrd"]
        case .maxSrcResolution: ["msr"]
        case .maxSrcFileSize: ["msfs"]
        case .maxAnimationFrames: ["maf"]
        case .maxAnimationFrameResolution: ["mafr"]
        case .watermark: ["wm"]
        case .cropAspectRatio: ["car", "crop_ar"]
        case .page: ["pg"]
        case .pages: ["pgs"]
        case .disableAnimation: ["da"]
        case .hashsum: ["hs"]
        case .resizingAlgorithm: ["ra"]
        case .backgroundAlpha: ["bga"]
        case .adjust: ["a"]
        case .brightness: ["br"]
        case .contrast: ["co"]
        case .saturation: ["sa"]
        case .monochrome: ["mc"]
        case .duotone: ["dt"]
        case .colorize: ["col"]
        case .gradient: ["gr"]
        case .unsharpMasking: ["ush"]
        case .blurAreas: ["ba"]
        case .progressiveBlur: ["pbl"]
        case .bypassCache: ["bc"]
        case .cacheTags: ["ct"]
        case .watermarkURL: ["wmu"]
        case .watermarkText: ["wmt"]
        case .watermarkSize: ["wms"]
        case .watermarkRotate: ["wmr", "wm_rot"]
        case .watermarkShadow: ["wmsh"]
        case .fallbackImageURL: ["fiu"]
        case .jpegOptions: ["jpgo"]
        case .pngOptions: ["pngo"]
        case .webpOptions: ["webpo"]
        case .avifOptions: ["avifo"]
        case .autoquality: ["aq"]
        case .style: ["st"]
        case .colorProfile: ["cp", "icc"]
        case .dpr, .dpi, .raw, .pipeline: []
        }
    }

    /// Whether it is one of imgproxy's security options, which change the server's limits and
    /// are read only when the server allows them (`--allow-security-options`).
    var isSecurityOption: Bool {
        switch self {
        case .maxSrcResolution, .maxSrcFileSize, .maxAnimationFrames, .maxAnimationFrameResolution, .maxResultDimension: true
        default: false
        }
    }

    /// Whether the option is about the source or the answer rather than a step of processing:
    /// in a chained pipeline it applies to the whole URL, whichever pipeline names it.
    var belongsToWholeURL: Bool {
        switch self {
        case .format, .quality, .formatQuality, .maxBytes, .skipProcessing, .raw, .cacheBuster, .expires, .filename,
             .returnAttachment, .stripMetadata, .keepCopyright, .stripColorProfile, .autoRotate, .preserveHDR,
             .enforceThumbnail, .dpi, .jpegOptions, .pngOptions, .webpOptions, .avifOptions, .maxSrcResolution,
             .maxSrcFileSize, .maxAnimationFrames, .maxAnimationFrameResolution, .maxResultDimension, .page, .pages,
             .disableAnimation, .hashsum, .bypassCache, .cacheTags, .fallbackImageURL, .autoquality, .style, .colorProfile: true
        default: false
        }
    }

    /// The option called `spelling`, long or short; nil for any other.
    init?(spelling: Substring) {
        if let long = ProcessingOptionName(rawValue: String(spelling)) {
            self = long
            return
        }
        guard let named = Self.allCases.first(where: { $0.shortNames.contains(String(spelling)) }) else { return nil }
        self = named
    }
}
