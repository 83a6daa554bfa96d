extension SVGSanitizer {
    /// What a sanitized document is for, which decides what is taken out of it beyond scripts
    /// and event handlers.
    public enum Policy: Sendable, Hashable {
        /// For librsvg to draw here: nothing outside the document may be reached. Every `href`
        /// (`xlink:href`, XInclude's…) that is not a fragment of the document (`#id`) is removed,
        /// `data:` URLs included, so that no file, URL or embedded raster is read (librsvg would
        /// load `data:` URLs even without a base); in style sheets and presentation attributes
        /// `url()` that is not a fragment becomes `none` and `@import` is disabled.
        case rendering
        /// For a client to draw, as imgproxy serves SVG when SVG is asked for: scripts and
        /// event handlers removed, and `<use>` may only refer to the document itself; links and
        /// images are left as the author wrote them.
        case serving
    }
}
