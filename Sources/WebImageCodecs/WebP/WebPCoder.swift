import Foundation
import WebImage

/// The WebP coder over libwebp: lossy, lossless, alpha and animated WebP; thumbnails decoded
/// at the reduced size by libwebp's own scaling; progressive display of still images with
/// libwebp's incremental decoder; lossy, lossless and animated encoding.
///
/// Pixels are non-premultiplied RGBA8. The EXIF chunk's orientation is applied at decode and
/// kept in ``Image/orientation``.
public struct WebPCoder: ProgressiveImageCoder, AnimatedImageCoder {
    /// A WebP coder; it holds no state.
    public init() {}

    /// Whether `data` starts like a WebP file (`RIFF....WEBP`).
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat(detecting: data) == .webp
    }

    /// Decodes a still image directly at its target size, or every frame of an animation
    /// (only the first with ``ImageDecodeOptions/firstFrameOnly``).
    public func decode(_ data: Data, options: ImageDecodeOptions) throws -> Image {
        guard !data.isEmpty else { throw ImageCodingError.empty }
        let features = try data.withUnsafeBytes { try WebPFeatures.read($0) }
        if features.has_animation != 0 {
            let reader = try WebPFrameReader(data: data, options: options)
            return try reader.decodeImage(format: .webp, options: options, orientation: reader.orientation)
        }
        return try data.withUnsafeBytes { bytes throws(ImageCodingError) in
            try WebPStillDecoder.decode(bytes, features: features, options: options)
        }
    }

    /// The rows of a still WebP received so far, at full (or target) size, the rest transparent;
    /// `nil` before the header is complete and for animated files.
    public func decodePartial(_ data: Data, options: ImageDecodeOptions) -> Image? {
        data.withUnsafeBytes { WebPPartialDecoder.decode($0, options: options) }
    }

    /// A reader of the composited frames of `data` (a still WebP reads as one frame).
    public func makeFrameReader(for data: Data, options: ImageDecodeOptions) throws -> any AnimatedFrameReader {
        try WebPFrameReader(data: data, options: options)
    }

    /// WebP only.
    public func canEncode(_ format: ImageFormat) -> Bool {
        format == .webp
    }

    /// Encodes `image` as WebP: lossy at ``ImageEncodeOptions/quality`` or lossless with
    /// ``ImageEncodeOptions/lossless``; an image of several frames becomes an animated WebP
    /// unless ``ImageEncodeOptions/firstFrameOnly``.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        guard format == .webp else { throw ImageCodingError.noEncoder(format) }
        return try WebPEncoder(options: options).encode(image)
    }
}
