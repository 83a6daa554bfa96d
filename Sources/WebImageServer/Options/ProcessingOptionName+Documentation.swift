extension ProcessingOptionName {
    /// The option's arguments as the URLOptions article's option table (WebImageServer.docc) writes them.
    var arguments: String {
        switch self {
        case .resize: "type:width:height:enlarge:extend:gravity:x:y"
        case .size: "width:height:enlarge:extend:gravity:x:y"
        case .resizingType: "fit, fill, fill-down, force or auto"
        case .width, .height, .minWidth, .minHeight, .maxResultDimension: "pixels"
        case .zoom: "factor[:y factor]"
        case .dpr: "ratio"
        case .enlarge, .autoRotate, .stripMetadata, .keepCopyright, .stripColorProfile, .preserveHDR, .enforceThumbnail,
             .raw, .returnAttachment: "boolean"
        case .extend, .extendAspectRatio: "enabled:gravity:x:y"
        case .gravity: "type:x:y"
        case .crop: "width:height:gravity:x:y"
        case .trim: "threshold:colour:equal_hor:equal_ver"
        case .padding: "top:right:bottom:left"
        case .rotate: "degrees"
        case .flip: "horizontal:vertical"
        case .background: "R:G:B, RRGGBB or RGB"
        case .blur, .sharpen: "sigma"
        case .pixelate: "size"
        case .dpi: "dots per inch"
        case .quality: "1…100"
        case .formatQuality: "format:quality:…"
        case .maxBytes: "bytes"
        case .format: "jpg, png, webp, avif, jxl, heic, gif or svg"
        case .skipProcessing: "format:…"
        case .cacheBuster: "text"
        case .expires: "Unix time"
        case .filename: "name:encoded"
        case .preset: "name:…"
        case .watermark: "opacity:position:x:y:scale"
        case .maxSrcResolution, .maxAnimationFrameResolution: "megapixels"
        case .maxSrcFileSize: "bytes"
        case .maxAnimationFrames: "frames"
        case .resizingAlgorithm: "nearest, linear, cubic, lanczos2 or lanczos3"
        case .backgroundAlpha: "0…1"
        case .adjust: "brightness:contrast:saturation"
        case .brightness: "−255…255"
        case .contrast, .saturation: "factor"
        case .monochrome: "intensity:colour"
        case .duotone: "intensity:colour1:colour2"
        case .colorize: "opacity:colour:keep_alpha"
        case .gradient: "opacity:colour:direction:start:stop"
        }
    }

    /// What the option does here, in one sentence for the URLOptions article's option table (WebImageServer.docc).
    var summary: String {
        switch self {
        case .resize: "Resizing type, size, enlarge and extend at once; empty arguments keep their values"
        case .size: "Size, enlarge and extend at once"
        case .resizingType: "How the image fits the size: inside, covering then cropped, covering without enlarging, stretched, or fill when both are landscape or portrait"
        case .width, .height: "The requested side; 0 follows the other side and the aspect ratio"
        case .minWidth, .minHeight: "The smallest side, reached by scaling past the requested size (which then crops)"
        case .zoom: "Multiplies the scales after the fit"
        case .dpr: "Multiplies the size, offsets and padding; capped so that it never enlarges without enlarge, and applied without a size too"
        case .enlarge: "Lets a source smaller than the size grow"
        case .extend: "Pads a smaller result to the requested size, placed by its own gravity (no smart), transparent without a background"
        case .extendAspectRatio: "Pads a result to the requested aspect ratio without growing it (also extend_ar)"
        case .gravity: "Where the fill crop lands: ce, no, so, ea, we, noea, nowe, soea, sowe with offsets (pixels times dpr, or fractions below 1), fp:x:y, or sm (smart, no offsets)"
        case .crop: "Crops the source before resizing: pixels, or fractions below 1, placed by its gravity or the main one"
        case .trim: "Removes a border within threshold of the colour (the top left pixel's when empty), optionally equal on both sides; not on animations"
        case .padding: "Adds space around the result, in CSS's order (missing sides as in CSS), times dpr, with the background or transparent"
        case .autoRotate: "Applies the orientation from the metadata"
        case .rotate: "Turns clockwise by a multiple of 90"
        case .flip: "Mirrors after the rotation"
        case .background: "Flattens transparency and fills extend and padding"
        case .blur: "Gaussian blur"
        case .sharpen: "Unsharp mask"
        case .pixelate: "Blocks of that many pixels"
        case .stripMetadata: "Accepted: outputs carry no metadata but the copyright `kcr` keeps"
        case .keepCopyright: "1 writes the source's EXIF Artist, Copyright and DateTime into a JPEG, PNG, WebP, AVIF or HEIC result; default --keep-copyright"
        case .stripColorProfile: "0 keeps the source's ICC profile (written again) instead of converting to sRGB"
        case .preserveHDR: "Accepted without effect: pixels are 8-bit"
        case .enforceThumbnail: "Accepted without effect: a shrinking decode already reads the smallest image that covers the result"
        case .dpi: "Accepted without effect: outputs carry no density"
        case .quality: "Encoder quality; 0 is the default"
        case .formatQuality: "Quality by output format, when quality is not given"
        case .maxBytes: "Lowers the quality (down to 10) until the result fits"
        case .format: "The output format; the source URL's extension says it too"
        case .skipProcessing: "Answers sources of these formats with their own bytes, unless another format is asked"
        case .raw: "Answers the source's own bytes, whatever the other options; the extension is ignored"
        case .cacheBuster: "Changes the URL and cache key, not the image"
        case .expires: "404 once past"
        case .filename: "The Content-Disposition file name, plain or URL-safe base64"
        case .returnAttachment: "Content-Disposition: attachment"
        case .preset: "Applies presets (--preset); default applies to every URL"
        case .maxResultDimension: "Scales the whole result, canvases and padding included, so that no side is longer; a security option"
        case .maxSrcResolution: "Overrides --max-src-resolution for this URL; a security option (--allow-security-options, else 403)"
        case .maxSrcFileSize: "Lowers --max-src-file-size for this URL (a larger value changes nothing); a security option"
        case .maxAnimationFrames: "Overrides --max-animation-frames for this URL; a security option"
        case .maxAnimationFrameResolution: "Overrides --max-animation-frame-resolution for this URL; a security option"
        case .resizingAlgorithm: "The resize's kernel, widened when shrinking (nearest excepted); lanczos3 by default (imgproxy Pro's)"
        case .backgroundAlpha: "The background's opacity, for outputs with alpha (imgproxy Pro's)"
        case .adjust: "Brightness, contrast and saturation at once; empty arguments keep their values (imgproxy Pro's)"
        case .brightness: "Adds the value to R, G and B after the resize (imgproxy Pro's)"
        case .contrast: "Scales each channel's distance from mid grey 128; 1 unchanged (imgproxy Pro's)"
        case .saturation: "Scales colour away from its Rec. 709 luminance, as CSS saturate(); 1 unchanged (imgproxy Pro's)"
        case .monochrome: "Every pixel a shade of the colour (default b3b3b3) by its luma, mixed in by intensity 0…1 (imgproxy Pro's)"
        case .duotone: "Luma mapped from colour1 (dark, default black) to colour2 (light, default white), mixed in by intensity 0…1 (imgproxy Pro's)"
        case .colorize: "Lays the colour (default black) over the result at that opacity 0…1; keep_alpha leaves transparency alone (imgproxy Pro's)"
        case .gradient: "Lays a gradient from transparent to the colour (default black) growing opaque toward down, up, left, right or an angle clockwise (0 is down), from start to stop 0…1 (imgproxy Pro's)"
        case .watermark: "Lays the configured watermark (--watermark-path, -url or -data) over the result: ce, no, so, ea, we, noea, nowe, soea, sowe with offsets (pixels times dpr, or fractions below 1), or re to tile it with the offsets as spacing; scale fits it to that fraction of the result; does nothing without a watermark configured"
        }
    }

    /// The URLOptions article's row for the option: `| `long`, `short` | `arguments` | summary |`.
    var markdownRow: String {
        "| " + ([rawValue] + shortNames).map { "`\($0)`" }.joined(separator: ", ") + " | `\(arguments)` | \(summary) |"
    }

    /// The URLOptions article's option table (WebImageServer.docc), header and rows.
    static var markdownTable: [String] {
        ["| option | arguments | what it does |", "|---|---|---|"] + allCases.map(\.markdownRow)
    }
}
