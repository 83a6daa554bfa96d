/// Reduces an image to a palette of at most a given number of colours, for coders that write
/// palette images (``IndexedPixels``): the seam a palette PNG encoder quantizes through, so
/// that the quantizer (libimagequant in `WebImageQuantization`, or another) is the caller's
/// choice and the codecs link none.
public protocol PaletteQuantizer: Sendable {
    /// `pixels` as at most `maxColors` colours (2…256), alpha included; throws
    /// ``ImageCodingError/encodingFailed(_:_:)`` when the quantizer cannot.
    func quantize(_ pixels: PixelBuffer, maxColors: Int) throws(ImageCodingError) -> IndexedPixels
}
