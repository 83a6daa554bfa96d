import Foundation
import WebImage

/// Decodes GIF (87a and 89a, still and animated) with giflib.
///
/// Frames are composited onto the logical screen, grown to take in every frame that reaches
/// past it (Pillow grows its canvas so too): local palettes over the global one, transparency,
/// and disposal modes 0–3 applied. Bytes between blocks that start none are skipped, as Pillow
/// skips them; LZW minimum code sizes up to 11, which giflib refuses above 8, are read as
/// Pillow reads them. Data that breaks off after the first frame (no trailer, a cut or broken
/// block or LZW stream) ends the animation there, with the last frame as far as it decodes. The loop count
/// is the NETSCAPE2.0 value as stored (0 = forever); a GIF without one plays once. Delays are
/// reported as stored (hundredths of a second); the under-11 ms rule applies at decode.
/// A download in progress shows the frames received so far (see
/// ``decodePartial(_:options:)``). Encoding writes GIF89a with a median-cut palette per frame
/// (see ``encode(_:as:options:)``).
public struct GIFCoder: AnimatedImageCoder, ProgressiveImageCoder {
    /// A GIF coder; it holds no state.
    public init() {}

    /// Whether `data` starts with `GIF87a` or `GIF89a`.
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat(detecting: data) == .gif
    }

    /// Decodes every frame (or the first, per `options`), composited, with durations and loop count.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws -> Image {
        try makeFrameReader(for: data, options: options).decodeImage(format: .gif, options: options)
    }

    /// A reader that decodes frames on demand; throws ``ImageCodingError`` for data that is
    /// not a readable GIF or exceeds the pixel limit.
    public func makeFrameReader(for data: Data, options: ImageDecodeOptions) throws -> any AnimatedFrameReader {
        if data.isEmpty { throw ImageCodingError.empty }
        guard canDecode(data) else { throw ImageCodingError.unsupportedFormat(ImageFormat(detecting: data)) }
        return try GIFFrameReader(data: data, options: options)
    }

    /// The frames whose data has arrived whole, as an animation, as SDWebImage's progressive
    /// animated coders show a GIF still downloading; before the first frame is whole, that
    /// frame as far as its rows have arrived. Marked incomplete until the trailer arrives;
    /// `nil` before the first image descriptor, or for bytes that are no GIF or exceed the
    /// pixel limit.
    public func decodePartial(_ data: Data, options: ImageDecodeOptions) -> Image? {
        guard canDecode(data), let reader = try? GIFFrameReader(data: data, options: options, arrivedFramesOnly: true),
              var image = try? reader.decodeImage(format: .gif, options: options)
        else { return nil }
        image.isIncomplete = !reader.isWhole
        return image
    }

    /// GIF only.
    public func canEncode(_ format: ImageFormat) -> Bool { format == .gif }

    /// Encodes `image` as GIF89a: each frame reduced to its own palette of at most 256 colours
    /// (pixels with alpha under 128 transparent), delays in hundredths of a second, and the
    /// loop count in a NETSCAPE2.0 block; only the first frame with
    /// ``ImageEncodeOptions/firstFrameOnly``. Quality and lossless do not apply.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        guard format == .gif else { throw ImageCodingError.noEncoder(format) }
        return try GIFEncoder(options: options).encode(image)
    }
}
