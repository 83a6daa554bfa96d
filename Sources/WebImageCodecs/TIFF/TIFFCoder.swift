import Foundation
import WebImage

/// Decodes and encodes TIFF with libtiff (thumbor and imgproxy read it; scanners, cameras and
/// print workflows write it).
///
/// Decoding reads the first image of the file through libtiff's RGBA interface: any bit depth
/// (16-bit samples are scaled to 8), grey, palette, RGB, CMYK, YCbCr and its compressions (LZW,
/// Deflate, PackBits, JPEG, …), associated or unassociated alpha (returned unpremultiplied),
/// with the orientation tag as ``Image/orientation`` and the ICC profile applied as other
/// formats' are. Thumbnails are decoded at full size and resampled. Hostile input is expected:
/// the size is checked against ``ImageDecodeOptions/maxPixels`` before the pixels are
/// allocated, libtiff's own allocations are bounded, and its errors come back as
/// ``ImageCodingError``s, never printed. Encoding: see ``TIFFEncoder``.
public struct TIFFCoder: AnimatedImageCoder {
    /// A TIFF coder; it holds no state.
    public init() {}

    /// Whether `data` starts with a TIFF or BigTIFF header, in either byte order.
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat(detecting: data) == .tiff
    }

    /// The first image of `data`, limited and resized as `options` say.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws -> Image {
        let reader = try TIFFFrameReader(data: data, options: options)
        return try reader.decodeImage(format: .tiff, options: options, orientation: reader.orientation)
    }

    /// A reader of the first image; throws ``ImageCodingError`` when libtiff cannot read it.
    public func makeFrameReader(for data: Data, options: ImageDecodeOptions) throws -> any AnimatedFrameReader {
        try TIFFFrameReader(data: data, options: options)
    }

    /// True for `.tiff`.
    public func canEncode(_ format: ImageFormat) -> Bool { format == .tiff }

    /// `image`'s first frame as a TIFF (see ``TIFFEncoder``); any other format throws
    /// ``ImageCodingError/noEncoder(_:)``.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        guard format == .tiff else { throw ImageCodingError.noEncoder(format) }
        return try TIFFEncoder().encode(image)
    }
}
