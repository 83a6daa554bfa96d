extension ServerConfiguration {
    /// The images the server itself needs: the watermark and the fallback image (loaded once at start).
    public struct OverlaySettings: Sendable, Equatable {
        /// The image `watermark` lays over results, or nil: the option is then accepted and does nothing.
        public var watermark: AuxiliaryImageSource?
        /// The watermark's base opacity, 0…1, multiplied by each URL's (imgproxy's `IMGPROXY_WATERMARK_OPACITY`).
        public var watermarkOpacity = 1.0
        /// The image processed with a URL's options when its source cannot be loaded (missing, the
        /// origin failing or too slow, not an image), or nil to answer the error.
        public var fallbackImage: AuxiliaryImageSource?
        /// The status a fallback image is answered with.
        public var fallbackImageHTTPCode = 200
        /// `Cache-Control` max-age of a fallback image, in seconds: short, so that the real image
        /// is asked for again soon; 0 takes ``ServerConfiguration/AnswerSettings/ttl``, as imgproxy's `IMGPROXY_FALLBACK_IMAGE_TTL` does.
        public var fallbackImageTTL = 60

        /// The defaults.
        public init() {}
    }
}
