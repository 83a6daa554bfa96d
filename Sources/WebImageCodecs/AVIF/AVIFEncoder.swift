import CAVIF
import Foundation
import WebImage

/// Writes AVIF stills and sequences with libavif and the AV1 encoder Debian's libavif picks
/// for encoding (libaom; rav1e and SVT-AV1 are linked too but come later in its list).
///
/// Quality 1–100 becomes one fixed quantizer for colour and alpha, `(100 − q) × 63 / 100`
/// rounded (libavif 1.0's own mapping; 0.11 has only quantizers). Below quality 90 chroma is
/// subsampled 4:2:0, from 90 up it is kept 4:4:4, as libvips does. Lossless is quantizer 0 with
/// 4:4:4 and the identity matrix (RGB stored as is). The pixels are tagged sRGB (`nclx` 1/13/6,
/// full range). Fully opaque images get no alpha plane. Sequences use a millisecond timescale
/// and, as libavif 0.11 writes no repetition count, play forever.
struct AVIFEncoder {
    /// libavif's speed, 0 (slowest, smallest) to 10 (fastest).
    let speed: Int

    /// The quantizer for `quality` (0–1, as ``ImageEncodeOptions/quality``), from 63 (worst)
    /// to 0 (best): quality 1 % → 62, 50 % → 32, 90 % → 6, 100 % → 0.
    static func quantizer(quality: Double) -> Int32 {
        let percent = Int((min(max(quality, 0), 1) * 100).rounded())
        return Int32(((100 - max(percent, 1)) * 63 + 50) / 100)
    }

    /// `image` as AVIF bytes: every frame (a sequence) unless `options` asks for the first only;
    /// an RGB ``Image/colorProfile`` goes into a `colr` box (sRGB pixels get none), the options'
    /// EXIF block into an `Exif` item.
    func encode(_ image: Image, options: ImageEncodeOptions) throws -> Data {
        let (written, profile) = image.withEmbeddableProfile()
        let frames = options.firstFrameOnly ? [written.frames[0]] : written.frames
        guard let encoder = avifEncoderCreate() else {
            throw ImageCodingError.encodingFailed(.avif, "libavif could not create an encoder")
        }
        defer { avifEncoderDestroy(encoder) }
        let quantizer = options.lossless ? Int32(AVIF_QUANTIZER_LOSSLESS) : Self.quantizer(quality: options.quality)
        encoder.pointee.speed = Int32(min(max(speed, Int(AVIF_SPEED_SLOWEST)), Int(AVIF_SPEED_FASTEST)))
        encoder.pointee.minQuantizer = quantizer
        encoder.pointee.maxQuantizer = quantizer
        encoder.pointee.minQuantizerAlpha = quantizer
        encoder.pointee.maxQuantizerAlpha = quantizer
        encoder.pointee.timescale = 1000
        let full = switch options.chromaSubsampling {
        case .automatic: quantizer <= Self.quantizer(quality: 0.9)
        case .subsampled: false
        case .full: true
        }
        let format = options.lossless || full ? AVIF_PIXEL_FORMAT_YUV444 : AVIF_PIXEL_FORMAT_YUV420
        let flags = frames.count == 1 ? AVIF_ADD_IMAGE_FLAG_SINGLE.rawValue : AVIF_ADD_IMAGE_FLAG_NONE.rawValue
        for frame in frames {
            let image = try Self.yuvImage(frame.pixels, format: format, lossless: options.lossless)
            defer { avifImageDestroy(image) }
            if let profile {
                profile.data.withUnsafeBytes { avifImageSetProfileICC(image, $0.baseAddress?.assumingMemoryBound(to: UInt8.self), $0.count) }
            }
            if let exif = options.exif {
                exif.withUnsafeBufferPointer { avifImageSetMetadataExif(image, $0.baseAddress, $0.count) }
                // libavif turns the block's orientation into irot and imir boxes; the block is written as given.
                image.pointee.transformFlags &= ~avifTransformFlags(AVIF_TRANSFORM_IROT.rawValue | AVIF_TRANSFORM_IMIR.rawValue)
            }
            let milliseconds = UInt64(max(1, (frame.duration * 1000).rounded()))
            try check(avifEncoderAddImage(encoder, image, milliseconds, avifAddImageFlags(flags)), encoder)
        }
        var output = avifRWData()
        try check(avifEncoderFinish(encoder, &output), encoder)
        defer { avifRWDataFree(&output) }
        return Data(bytes: output.data, count: output.size)
    }

    /// `pixels` converted to a YUV image of `format`, with an alpha plane only when some pixel
    /// is not opaque; the caller destroys it.
    private static func yuvImage(_ pixels: PixelBuffer, format: avifPixelFormat,
                                 lossless: Bool) throws -> UnsafeMutablePointer<avifImage> {
        guard let width = UInt32(exactly: pixels.width), let height = UInt32(exactly: pixels.height),
              let image = avifImageCreate(width, height, 8, format) else {
            throw ImageCodingError.encodingFailed(.avif, "libavif could not create a \(pixels.width)x\(pixels.height) image")
        }
        image.pointee.colorPrimaries = avifColorPrimaries(AVIF_COLOR_PRIMARIES_BT709)
        image.pointee.transferCharacteristics = avifTransferCharacteristics(AVIF_TRANSFER_CHARACTERISTICS_SRGB)
        image.pointee.matrixCoefficients = avifMatrixCoefficients(
            lossless ? AVIF_MATRIX_COEFFICIENTS_IDENTITY : AVIF_MATRIX_COEFFICIENTS_BT601)
        image.pointee.yuvRange = AVIF_RANGE_FULL
        var rgb = avifRGBImage()
        avifRGBImageSetDefaults(&rgb, image)
        rgb.format = AVIF_RGB_FORMAT_RGBA
        rgb.depth = 8
        rgb.ignoreAlpha = pixels.hasTransparency ? AVIF_FALSE : AVIF_TRUE
        rgb.rowBytes = width * 4
        // libavif only reads the RGB pixels here.
        let result = pixels.bytes.withUnsafeBufferPointer { buffer in
            rgb.pixels = UnsafeMutablePointer(mutating: buffer.baseAddress)
            return avifImageRGBToYUV(image, &rgb)
        }
        guard result == AVIF_RESULT_OK else {
            avifImageDestroy(image)
            throw ImageCodingError.encodingFailed(.avif, String(cString: avifResultToString(result)))
        }
        return image
    }

    private func check(_ result: avifResult, _ encoder: UnsafeMutablePointer<avifEncoder>) throws {
        guard result != AVIF_RESULT_OK else { return }
        let message = String(cString: avifResultToString(result))
        let detail = withUnsafeBytes(of: &encoder.pointee.diag.error) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        throw ImageCodingError.encodingFailed(.avif, detail.isEmpty ? message : "\(message) (\(detail))")
    }
}
