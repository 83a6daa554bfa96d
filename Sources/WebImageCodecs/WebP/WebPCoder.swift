import Foundation
import WebImage

/// The WebP coder over libwebp: lossy, lossless, alpha and animated WebP; thumbnails decoded
/// at the reduced size by libwebp's own scaling; progressive display of still images with
/// libwebp's incremental decoder; lossy, lossless and animated encoding.
///
/// Pixels are non-premultiplied RGBA8. The EXIF chunk's orientation is applied at decode and
/// kept in ``Image/orientation``; the `ICCP` chunk's profile converts the pixels to sRGB (or
/// is kept, see ``ColorManagement``) and is written again by the encoder.
public struct WebPCoder: ProgressiveImageCoder, AnimatedImageCoder {
    /// libwebp's encoding effort (its `method`), 0 (fastest) to 6 (smallest files).
    public var effort: Int
    /// The preset lossy encoding starts from.
    public var preset: WebPEncodingPreset

    /// libwebp's default effort, which is imgproxy's too (`IMGPROXY_WEBP_EFFORT`).
    public static let defaultEffort = 4

    /// A coder that encodes with `effort` (0–6, clamped) from `preset`.
    public init(effort: Int = WebPCoder.defaultEffort, preset: WebPEncodingPreset = .default) {
        self.effort = effort
        self.preset = preset
    }

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

    /// The size `data` decodes to under `options`, read from the headers alone, before
    /// orientation is applied: for a still image the thumbnail or scale-down size libwebp
    /// scales to while decoding (so the full size is never allocated), for an animation the
    /// canvas (its frames are resized after compositing).
    public func decodedPixelSize(of data: Data, options: ImageDecodeOptions) throws -> PixelSize {
        guard !data.isEmpty else { throw ImageCodingError.empty }
        return try data.withUnsafeBytes { bytes throws(ImageCodingError) in
            let features = try WebPFeatures.read(bytes)
            if features.has_animation != 0 {
                return PixelSize(width: Int(features.width), height: Int(features.height))
            }
            return try WebPDecodePlan(features: features, orientation: WebPMetadata(bytes).orientation,
                                      options: options).decodedSize
        }
    }

    /// The rows of a still WebP received so far, at full (or target) size, the rest transparent,
    /// with ``Image/isIncomplete`` set; once every byte has arrived, the complete image with
    /// `isIncomplete` false. `nil` before the header is complete, for animated files and for
    /// bytes libwebp rejects. The EXIF orientation is applied only if its chunk has arrived
    /// (writers usually put it after the pixels).
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
        return try WebPEncoder(options: options, effort: effort, preset: preset).encode(image)
    }
}
