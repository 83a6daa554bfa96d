import Foundation
import WebImage

/// Decodes HEIC and HEIF still images (iPhone photos) with libheif, which hands HEVC to libde265.
///
/// libheif assembles `grid` items from their tiles, applies the `clap`, `irot` and `imir`
/// transforms and decodes the alpha auxiliary image; the pixels come out upright, so the image's
/// ``Image/orientation`` is `.up`. The EXIF orientation tag an iPhone also writes describes the
/// same rotation and is not applied again (SPEC §14). Samples deeper than 8 bits are rounded to
/// 8. A thumbnail is decoded from the file's own thumbnail item when one is at least as large as
/// the box, else from the full image, then resampled; with ``ImageDecodeOptions/embeddedThumbnail``,
/// from the largest thumbnail item whatever its size. An image sequence (`msf1`: an
/// animated HEICS, a burst) decodes as an animation: its first track of HEVC pictures is read
/// here and decoded by libde265 (libheif 1.15 reads items only), with the durations of its
/// sample table; ``ImageDecodeOptions/firstFrameOnly`` decodes the primary still instead when
/// the file has one. The `colr` ICC profile converts the pixels to sRGB (or is kept, see
/// ``ColorManagement``). Encoding writes HEIC through libheif's x265 encoder when this libheif
/// has one (see ``encode(_:as:options:)``).
public struct HEIFCoder: ImageCoder, ImageHeaderReading, AnimatedImageCoder {
    /// A coder; it holds no state.
    public init() {}

    /// Whether `data` starts with an `ftyp` box of a HEIF brand (`heic`, `heix`, `mif1`,
    /// `msf1`…) that is not AVIF's.
    public func canDecode(_ data: Data) -> Bool {
        Self.format(of: data) != nil
    }

    /// Decodes the image sequence of `data` when it has one of two or more pictures (or no
    /// still), else its primary image, upright and resized to
    /// ``ImageDecodeOptions/targetSize(for:frameCount:)``.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws -> Image {
        let format = try Self.requireFormat(of: data)
        if let sequence = try sequenceReader(for: data, format: format, options: options) {
            return try sequence.decodeImage(format: format, options: options)
        }
        return try decodeStill(data, format: format, options: options)
    }

    /// A reader of the image sequence's pictures, or of the primary still as one frame.
    public func makeFrameReader(for data: Data, options: ImageDecodeOptions) throws -> any AnimatedFrameReader {
        let format = try Self.requireFormat(of: data)
        if let sequence = try sequenceReader(for: data, format: format, options: options) { return sequence }
        return HEIFStillFrameReader(try decodeStill(data, format: format, options: options))
    }

    /// The reader of `data`'s image sequence, when that is what `data` shows: a sequence of
    /// two or more pictures unless only the first frame is asked for, or any sequence of a
    /// file without a still image.
    private func sequenceReader(for data: Data, format: ImageFormat,
                                options: ImageDecodeOptions) throws -> HEIFSequenceReader? {
        let (found, hasStill) = try data.withUnsafeBytes { bytes in
            (try HEIFSequence.read(bytes, format: format), HEIFSequence.fileHasItems(bytes))
        }
        guard let sequence = found, !hasStill || (sequence.samples.count > 1 && !options.firstFrameOnly) else { return nil }
        return try HEIFSequenceReader(data: data, sequence: sequence, options: options)
    }

    /// The primary image of `data` through libheif.
    private func decodeStill(_ data: Data, format: ImageFormat, options: ImageDecodeOptions) throws -> Image {
        if options.embeddedThumbnail, let thumbnail = try Self.embeddedThumbnail(of: data, format: format, options: options) {
            return thumbnail
        }
        let file = try HEIFFile(data: data, format: format, options: options)
        return Self.image(try file.decodePrimary(size: options.targetSize(for: file.size)), of: file, options: options)
    }

    /// The largest thumbnail item of `data` (HEIF-structured, of `format`: HEIC, HEIF or AVIF,
    /// whose AV1 libheif decodes too) as ``ImageDecodeOptions/embeddedThumbnail`` asks for it,
    /// or nil when the file has none or libheif cannot read it (its main image's decoder then
    /// says why).
    static func embeddedThumbnail(of data: Data, format: ImageFormat, options: ImageDecodeOptions) throws -> Image? {
        guard let file = try? HEIFFile(data: data, format: format, options: options),
              let pixels = try file.decodeLargestThumbnail(size: { options.targetSize(for: $0) }) else { return nil }
        return image(pixels, of: file, options: options)
    }

    /// `pixels` decoded from `file`, in the colours `options` ask for.
    private static func image(_ pixels: PixelBuffer, of file: HEIFFile, options: ImageDecodeOptions) -> Image {
        var pixels = pixels
        var color = EmbeddedColorProfile(iccDataOfRGBA: file.colorSpace.iccProfile, management: options.colorManagement)
        color.convert(&pixels)
        var image = Image(pixels: pixels, scale: options.scaleFactor, format: file.format)
        color.label(&image)
        return image
    }

    /// The size after `irot`/`imir`/`clap` (as the image decodes) and one frame, or the
    /// frames and durations of the image sequence that decodes; the orientation is `.up`
    /// because the transforms are part of decoding.
    public func readHeader(_ data: Data) throws -> ImageHeader {
        let format = try Self.requireFormat(of: data)
        let unlimited = ImageDecodeOptions(maxPixels: 0, colorManagement: .preserve)
        if let sequence = try sequenceReader(for: data, format: format, options: unlimited) {
            return ImageHeader(format: format, reader: sequence)
        }
        let file = try HEIFFile(data: data, format: format, options: ImageDecodeOptions(maxPixels: 0))
        return ImageHeader(format: format, pixelSize: file.size,
                           colorProfile: file.colorSpace.iccProfile.flatMap { try? ColorProfile(iccData: Data($0)) })
    }

    /// HEIC, when libheif has an HEVC encoder (`heif_have_encoder_for_format`); never HEIF.
    public func canEncode(_ format: ImageFormat) -> Bool {
        format == .heic && HEIFEncoder.isAvailable
    }

    /// Encodes the first frame as HEIC with x265: ``ImageEncodeOptions/quality`` as libheif's
    /// lossy quality (0.9 → 90), or lossless; alpha kept; an RGB ICC profile in `colr`.
    /// Throws ``ImageCodingError/noEncoder(_:)`` for another format or without an HEVC encoder.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        guard canEncode(format) else { throw ImageCodingError.noEncoder(format) }
        return try HEIFEncoder().encode(image, options: options)
    }

    private static func format(of data: Data) -> ImageFormat? {
        let format = ImageFormat(detecting: data)
        return format == .heic || format == .heif ? format : nil
    }

    private static func requireFormat(of data: Data) throws -> ImageFormat {
        if data.isEmpty { throw ImageCodingError.empty }
        guard let format = format(of: data) else {
            throw ImageCodingError.corrupt(.heif, "not a HEIF file (no HEIF brand in an ftyp box)")
        }
        return format
    }
}
