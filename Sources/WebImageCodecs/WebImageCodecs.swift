import WebImage

/// The coders over the system libraries: libjpeg-turbo, libpng, giflib, libwebp, libavif,
/// libheif, libjxl and libtiff; librsvg draws SVG; a bitmap (BMP) decoder of its own.
public enum WebImageCodecs {
    /// Every coder this module provides, in registration order.
    public static var defaultCoders: [any ImageCoder] {
        [JPEGCoder(), PNGCoder(), GIFCoder(), WebPCoder(), AVIFCoder(), HEIFCoder(), JXLCoder(), SVGCoder(), BMPCoder(), TIFFCoder()]
    }

    /// Adds ``defaultCoders`` to `registry` (the shared one by default); coders added to it
    /// later still take precedence.
    public static func registerDefaults(in registry: ImageCoders = .shared) {
        for coder in defaultCoders { registry.add(coder) }
    }
}
