import Foundation
import WebImage

/// Decodes AVIF stills and AVIF image sequences (`avis`) with libavif.
///
/// libavif parses the ISO-BMFF container and hands the AV1 payload to the AV1 decoder it was
/// built with (dav1d on Debian); YUV of any depth (8, 10, 12 bit) is converted to RGBA8 with
/// libavif's defaults, as Pillow's AVIF plugin does, so the pixels match Pillow's. The `irot`
/// and `imir` boxes become the image's ``ImageOrientation`` and are applied like EXIF
/// orientation. Thumbnails are decoded at full size and resampled (AV1 has no reduced-size
/// decoding). Decoding only: ``canEncode(_:)`` is false.
public struct AVIFCoder: AnimatedImageCoder {
    /// A coder; it holds no state.
    public init() {}

    /// Whether `data` starts with an `ftyp` box whose brand is `avif` or `avis`.
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat(detecting: data) == .avif
    }

    /// Decodes every frame of `data` (or the first only, per `options`), upright and resized
    /// to ``ImageDecodeOptions/targetSize(for:frameCount:)``.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws -> Image {
        let reader = try AVIFFrameReader(data: data, options: options)
        return try reader.decodeImage(format: .avif, options: options, orientation: reader.orientation)
    }

    /// Parses the container of `data` for frame-by-frame decoding; throws if it is not AVIF or
    /// its frames exceed the pixel limit of `options`. The reader's frames are as stored:
    /// only ``decode(_:options:)`` applies the `irot`/`imir` orientation.
    public func makeFrameReader(for data: Data, options: ImageDecodeOptions) throws -> any AnimatedFrameReader {
        try AVIFFrameReader(data: data, options: options)
    }

    /// Always false: this coder does not encode.
    public func canEncode(_ format: ImageFormat) -> Bool { false }

    /// Always throws ``ImageCodingError/noEncoder(_:)``.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        throw ImageCodingError.noEncoder(format)
    }
}
