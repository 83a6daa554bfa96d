import Foundation
import WebImage

/// JPEG over libjpeg-turbo: baseline, progressive and arithmetic-coded; greyscale, YCbCr, RGB,
/// CMYK and YCCK (Adobe-inverted: through the embedded CMYK profile, else converted as Pillow
/// does); EXIF orientation applied; the `ICC_PROFILE` markers' profile converted to sRGB (or
/// kept, see ``ColorManagement``) and written again by the encoder.
///
/// Decoding writes RGBA straight from libjpeg into the image's buffer. Thumbnails (and the
/// scale-down limit) decode at a reduced DCT scale first, so a small thumbnail of a large
/// photo never holds the full-size pixels, and the rows at that scale go to the resampler a
/// band at a time rather than into a whole intermediate image, and ``ImageDecodeOptions/maxPixels`` is checked
/// against the size actually decoded. 12-bit files fail with
/// ``ImageCodingError/unsupportedFeature(_:_:)``. Data that ends early fails with
/// ``ImageCodingError/truncated(_:)`` (as Pillow does, even for a missing EOI), and damaged
/// entropy-coded data (libjpeg's "Corrupt JPEG data" warnings, except extraneous bytes between
/// segments) with ``ImageCodingError/corrupt(_:_:)``, where Pillow would show libjpeg's filler;
/// ``decodePartial(_:options:)`` tolerates both.
public struct JPEGCoder: ProgressiveImageCoder, ImageHeaderReading {
    /// A JPEG coder; it holds no state.
    public init() {}

    /// Whether `data` starts like a JPEG (`FF D8 FF`).
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat(detecting: data) == .jpeg
    }

    /// Decodes `data` to one upright RGBA8 frame of ``ImageDecodeOptions/targetSize(for:frameCount:)``.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws -> Image {
        try decodeImage(data, options: options, allowTruncated: false)
    }

    /// Decodes a prefix of a baseline or progressive JPEG: the rows (baseline) or passes
    /// (progressive) that have arrived, the rest filled in by libjpeg, at the full target size.
    /// `isIncomplete` is true unless the data reached the end of the image. Returns `nil` while
    /// the header is incomplete, and for data that is not a decodable JPEG.
    public func decodePartial(_ data: Data, options: ImageDecodeOptions) -> Image? {
        try? decodeImage(data, options: options, allowTruncated: true)
    }

    /// The size libjpeg decodes `data` at for `options`, before resampling and orientation:
    /// the full stored size, or the DCT-scaled one (1/2, 1/4, 1/8) for a thumbnail. This is
    /// the size ``ImageDecodeOptions/maxPixels`` is checked against.
    public static func decodedSize(of data: Data, options: ImageDecodeOptions = ImageDecodeOptions()) throws -> PixelSize {
        guard !data.isEmpty else { throw ImageCodingError.empty }
        return try data.withUnsafeBytes { bytes in
            let decompressor = try JPEGDecompressor(bytes: bytes, allowTruncated: true)
            return JPEGDecodePlan(imageSize: decompressor.imageSize, orientation: decompressor.orientation,
                                  options: options).decodedSize
        }
    }

    /// The size (after EXIF orientation) and orientation from the header, without decoding.
    public func readHeader(_ data: Data) throws -> ImageHeader {
        guard !data.isEmpty else { throw ImageCodingError.empty }
        return try data.withUnsafeBytes { bytes in
            let decompressor = try JPEGDecompressor(bytes: bytes, allowTruncated: true)
            let size = decompressor.imageSize, orientation = decompressor.orientation
            return ImageHeader(format: .jpeg,
                               pixelSize: orientation.swapsDimensions ? PixelSize(width: size.height, height: size.width) : size,
                               orientation: orientation,
                               colorProfile: decompressor.iccProfile.flatMap { try? ColorProfile(iccData: $0) })
        }
    }

    private func decodeImage(_ data: Data, options: ImageDecodeOptions, allowTruncated: Bool) throws -> Image {
        guard !data.isEmpty else { throw ImageCodingError.empty }
        return try data.withUnsafeBytes { bytes in
            let decompressor = try JPEGDecompressor(bytes: bytes, allowTruncated: allowTruncated)
            let orientation = decompressor.orientation
            let plan = JPEGDecodePlan(imageSize: decompressor.imageSize, orientation: orientation, options: options)
            try options.checkPixelLimit(plan.decodedSize)
            var color = EmbeddedColorProfile(iccData: decompressor.iccProfile, samples: decompressor.samples,
                                             management: options.colorManagement)
            let transform = color.transform()
            let decoded: (pixels: PixelBuffer, incomplete: Bool)
            if plan.decodedSize == plan.storedTargetSize {
                decoded = try decompressor.decode(
                    scaleDenominator: plan.scaleDenominator, size: plan.decodedSize, maxPixels: options.maxPixels,
                    converting: transform)
            } else {
                // A size between DCT scales streams its rows, colour converted, into the
                // resampler instead of being decoded whole first.
                decoded = try decompressor.decode(
                    scaleDenominator: plan.scaleDenominator, size: plan.decodedSize, maxPixels: options.maxPixels,
                    converting: transform, resampledTo: plan.storedTargetSize)
            }
            var pixels = decoded.pixels
            if orientation != .up { pixels = pixels.applying(orientation) }
            var image = Image(frames: [ImageFrame(pixels: pixels)], scale: options.scaleFactor, format: .jpeg,
                              orientation: orientation, isIncomplete: decoded.incomplete)
            color.label(&image)
            return image
        }
    }
}
