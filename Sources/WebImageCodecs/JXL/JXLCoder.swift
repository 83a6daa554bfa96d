import Foundation
import WebImage

/// Decodes and encodes JPEG XL with libjxl: stills and animations, lossy (VarDCT/XYB) and
/// lossless (modular), alpha, and JPEG recompressed by cjxl (decoded to pixels).
///
/// libjxl applies the codestream orientation, so images come out upright with
/// ``Image/orientation`` `.up`, and coalesces animation frames into full canvases with their
/// durations and loop count. Samples deeper than 8 bits are rounded to 8. Thumbnails are
/// decoded at full size and resampled. Encoding: see ``JXLEncoder``; ``effort`` trades time
/// for size.
public struct JXLCoder: AnimatedImageCoder {
    /// libjxl's encoding effort, 1 (fastest) to 9 (smallest files).
    public var effort: Int

    /// libjxl's default effort ("squirrel").
    public static let defaultEffort = 7

    /// A coder that encodes with `effort` (1–9, clamped).
    public init(effort: Int = JXLCoder.defaultEffort) {
        self.effort = effort
    }

    /// Whether `data` starts with a JPEG XL codestream or container signature.
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat(detecting: data) == .jxl
    }

    /// Decodes every frame of `data` (or the first only, per `options`), upright and resized
    /// to ``ImageDecodeOptions/targetSize(for:frameCount:)``.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws -> Image {
        try JXLFrameReader(data: data, options: options).decodeImage(format: .jxl, options: options)
    }

    /// Parses the headers of `data` for frame-by-frame decoding; frames come out upright.
    public func makeFrameReader(for data: Data, options: ImageDecodeOptions) throws -> any AnimatedFrameReader {
        try JXLFrameReader(data: data, options: options)
    }

    /// True for `.jxl`.
    public func canEncode(_ format: ImageFormat) -> Bool { format == .jxl }

    /// `image` as JPEG XL: a still, or an animation of every frame (unless
    /// ``ImageEncodeOptions/firstFrameOnly``); ``ImageEncodeOptions/quality`` and
    /// ``ImageEncodeOptions/lossless`` apply. Any other format throws ``ImageCodingError/noEncoder(_:)``.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        guard format == .jxl else { throw ImageCodingError.noEncoder(format) }
        return try JXLEncoder(effort: effort).encode(image, options: options)
    }
}
