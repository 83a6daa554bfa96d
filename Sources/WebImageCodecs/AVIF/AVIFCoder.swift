import Foundation
import WebImage

/// Decodes AVIF stills and AVIF image sequences (`avis`) with libavif.
///
/// libavif parses the ISO-BMFF container and hands the AV1 payload to the AV1 decoder it was
/// built with (dav1d on Debian); YUV of any depth (8, 10, 12 bit) is converted to RGBA8 with
/// libavif's defaults, as Pillow's AVIF plugin does, so the pixels match Pillow's. The `irot`
/// and `imir` boxes become the image's ``ImageOrientation`` and are applied like EXIF
/// orientation. Samples deeper than 8 bits (10, 12) with 4:4:4 chroma are converted at 16 bits
/// and rounded to 8; with 4:2:0 or 4:2:2 chroma they take libavif's 8-bit path through libyuv,
/// whose chroma upsampling the references follow (see ``AVIFFrameReader``).
/// Thumbnails are decoded at full size and resampled (AV1 has no reduced-size decoding).
///
/// Encodes too (``AVIFEncoder``: libaom through libavif): quality maps to one quantizer, and
/// ``speed`` trades encoding time for size; animations become AVIF sequences.
public struct AVIFCoder: AnimatedImageCoder {
    /// libavif's encoding speed, 0 (slowest, smallest files) to 10 (fastest).
    public var speed: Int

    /// The speed imgproxy uses by default (`IMGPROXY_AVIF_SPEED`): fast enough for a server,
    /// within a few percent of the slowest speeds' sizes.
    public static let defaultSpeed = 8

    /// A coder that encodes at `speed` (0–10, clamped).
    public init(speed: Int = AVIFCoder.defaultSpeed) {
        self.speed = speed
    }

    /// Whether `data` starts with an `ftyp` box whose brand is `avif` or `avis`.
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat(detecting: data) == .avif
    }

    /// Decodes every frame of `data` (or the first only, per `options`), upright and resized
    /// to ``ImageDecodeOptions/targetSize(for:frameCount:)``.
    /// With ``ImageDecodeOptions/embeddedThumbnail``, a thumbnail item is decoded instead when the
    /// file has one (through libheif, which libavif's reading of the primary item leaves out).
    public func decode(_ data: Data, options: ImageDecodeOptions) throws -> Image {
        if options.embeddedThumbnail, let thumbnail = try HEIFCoder.embeddedThumbnail(of: data, format: .avif, options: options) {
            return thumbnail
        }
        let reader = try AVIFFrameReader(data: data, options: options)
        return try reader.decodeImage(format: .avif, options: options, orientation: reader.orientation)
    }

    /// Parses the container of `data` for frame-by-frame decoding; throws if it is not AVIF or
    /// its frames exceed the pixel limit of `options`. The reader's frames are as stored:
    /// only ``decode(_:options:)`` applies the `irot`/`imir` orientation.
    public func makeFrameReader(for data: Data, options: ImageDecodeOptions) throws -> any AnimatedFrameReader {
        try AVIFFrameReader(data: data, options: options)
    }

    /// True for `.avif`.
    public func canEncode(_ format: ImageFormat) -> Bool { format == .avif }

    /// `image` as AVIF: a still, or a sequence of every frame with its duration (unless
    /// ``ImageEncodeOptions/firstFrameOnly``); ``ImageEncodeOptions/quality`` and
    /// ``ImageEncodeOptions/lossless`` apply. Any other format throws ``ImageCodingError/noEncoder(_:)``.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        guard format == .avif else { throw ImageCodingError.noEncoder(format) }
        return try AVIFEncoder(speed: speed).encode(image, options: options)
    }
}
