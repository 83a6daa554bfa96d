import Foundation

extension ImageCoders {
    /// The side of the box ``analysisThumbnail(of:maxSide:)`` decodes into: decoders that shrink
    /// on load (JPEG by 1/2, 1/4, 1/8; WebP; SVG) read the smallest size that still covers it.
    public static let analysisDecodeBox = 256

    /// The first frame of `data` as the analyses take it (``BlurHash``, ``ThumbHash``,
    /// ``AverageColor``, ``ColorPalette``, ``DominantColors``): decoded shrunk on load into
    /// ``analysisDecodeBox``, upright, then shrunk to `maxSide` pixels a side
    /// (``PixelBuffer/analysisThumbnail(maxSide:)``). A 12 MP JPEG is decoded at 1/8 size, not
    /// in full: the answers do not need more.
    public func analysisThumbnail(of data: Data, maxSide: Int = 100) throws(ImageCodingError) -> PixelBuffer {
        var options = ImageDecodeOptions()
        options.firstFrameOnly = true
        options.thumbnailPixelSize = PixelSize(width: Self.analysisDecodeBox, height: Self.analysisDecodeBox)
        return try decode(data, options: options).pixels.analysisThumbnail(maxSide: maxSide)
    }
}
