import Foundation
import WebImage

/// Decodes HEIC and HEIF still images (iPhone photos) with libheif, which hands HEVC to libde265.
///
/// libheif assembles `grid` items from their tiles, applies the `clap`, `irot` and `imir`
/// transforms and decodes the alpha auxiliary image; the pixels come out upright, so the image's
/// ``Image/orientation`` is `.up`. The EXIF orientation tag an iPhone also writes describes the
/// same rotation and is not applied again (SPEC §14). Samples deeper than 8 bits are rounded to
/// 8. A thumbnail is decoded from the file's own thumbnail item when one is at least as large as
/// the box, else from the full image, then resampled. Image sequences (`msf1`) decode their
/// primary still. The `colr` ICC profile converts the pixels to sRGB (or is kept, see
/// ``ColorManagement``). Encoding writes HEIC through libheif's x265 encoder when this libheif
/// has one (see ``encode(_:as:options:)``).
public struct HEIFCoder: ImageCoder, ImageHeaderReading {
    /// A coder; it holds no state.
    public init() {}

    /// Whether `data` starts with an `ftyp` box of a HEIF brand (`heic`, `heix`, `mif1`,
    /// `msf1`…) that is not AVIF's.
    public func canDecode(_ data: Data) -> Bool {
        Self.format(of: data) != nil
    }

    /// Decodes the primary image of `data`, upright and resized to
    /// ``ImageDecodeOptions/targetSize(for:frameCount:)``.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws -> Image {
        let format = try Self.requireFormat(of: data)
        let file = try HEIFFile(data: data, format: format, options: options)
        var pixels = try file.decodePrimary(size: options.targetSize(for: file.size))
        var color = EmbeddedColorProfile(iccDataOfRGBA: file.colorSpace.iccProfile, management: options.colorManagement)
        color.convert(&pixels)
        var image = Image(pixels: pixels, scale: options.scaleFactor, format: format)
        color.label(&image)
        return image
    }

    /// The size after `irot`/`imir`/`clap` (as the image decodes) and one frame; the
    /// orientation is `.up` because the transforms are part of decoding.
    public func readHeader(_ data: Data) throws -> ImageHeader {
        let format = try Self.requireFormat(of: data)
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
