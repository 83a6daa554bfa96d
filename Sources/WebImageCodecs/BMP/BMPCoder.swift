import Foundation
import WebImage

/// Decodes Windows bitmaps (SDWebImage reads them through ImageIO): 1, 4 and 8 bits a pixel
/// with a palette, 16, 24 and 32 bits, RLE4 and RLE8, bottom-up and top-down rows, bit-field
/// masks, under core, info and V2–V5 headers.
///
/// Hostile input is expected: every header field is checked against the file before use, the
/// size against ``ImageDecodeOptions/maxPixels`` before the pixels are allocated, and failures
/// are ``ImageCodingError``s. As in Pillow, 32-bit pixels without bit fields are opaque (the
/// fourth byte is padding), and run-length pixels no code reaches are palette entry 0.
/// JPEG- and PNG-compressed bitmaps are refused as unsupported. Encodes too (``BMPEncoder``).
public struct BMPCoder: AnimatedImageCoder {
    /// A bitmap coder; it holds no state.
    public init() {}

    /// Whether `data` starts with `BM`.
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat(detecting: data) == .bmp
    }

    /// The bitmap, limited and resized as `options` say.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws -> Image {
        try makeFrameReader(for: data, options: options).decodeImage(format: .bmp, options: options)
    }

    /// A reader of the one frame; throws ``ImageCodingError`` when the headers are not readable.
    public func makeFrameReader(for data: Data, options: ImageDecodeOptions) throws -> any AnimatedFrameReader {
        if data.isEmpty { throw ImageCodingError.empty }
        guard canDecode(data) else { throw ImageCodingError.unsupportedFormat(ImageFormat(detecting: data)) }
        return try BMPFrameReader(data: data)
    }

    /// True for `.bmp`.
    public func canEncode(_ format: ImageFormat) -> Bool { format == .bmp }

    /// `image`'s first frame as a bitmap (see ``BMPEncoder``: 24 bits when opaque, 32 with an
    /// alpha mask otherwise, as ImageIO writes them for SDWebImage); another format throws
    /// ``ImageCodingError/noEncoder(_:)``. Bitmaps have no quality: the options' pixel size and
    /// background apply, as ``ImageCoders/encode(_:as:options:)`` applies them for every coder.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        guard format == .bmp else { throw ImageCodingError.noEncoder(format) }
        guard let frame = image.frames.first else { throw ImageCodingError.encodingFailed(.bmp, "the image has no frame") }
        return try BMPEncoder().encode(frame.pixels)
    }
}
