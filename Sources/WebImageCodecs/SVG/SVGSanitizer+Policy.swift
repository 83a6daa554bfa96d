extension SVGSanitizer {
    /// What a sanitized document is for. Under either policy the document keeps only what
    /// `SVGAllowList` names (no `foreignObject`, no HTML, no SMIL that animates `href`,
    /// `style` or a handler), every `href` that is not a fragment of the document (`#id`) is
    /// removed, and in style sheets, `style` and every other attribute, `url()` that is not a
    /// fragment becomes `none`, `@import` is disabled and CSS escapes drop the text whole. The
    /// policies differ in one thing: raster images embedded as `data:` URLs.
    public enum Policy: Sendable, Hashable {
        /// For librsvg to draw here: nothing outside the document may be reached, `data:` URLs
        /// included, so that no file, URL or embedded raster is read (librsvg would load
        /// `data:` URLs even without a base).
        case rendering
        /// For a browser to draw, answered as SVG: an `<image>` may keep a raster `data:` URL
        /// (`image/png`, `image/jpeg`, `image/gif`, `image/webp`), which a browser decodes as a
        /// picture; a `data:` SVG, HTML or any other type is removed with the other URLs.
        case serving
    }
}
