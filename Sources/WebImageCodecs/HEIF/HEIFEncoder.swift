import CHEIF
import Foundation
import WebImage

/// Writes HEIC stills with libheif and its x265 HEVC encoder (Debian's libheif 1.15 links
/// libx265; ``isAvailable`` asks libheif, so a build without it says so instead of failing late).
///
/// Quality 0–1 becomes libheif's lossy quality 0–100; lossless asks x265 for lossless coding
/// (the RGB to YCbCr conversion still rounds). Opaque images are written as RGB, others with an
/// alpha plane. An RGB ``Image/colorProfile`` goes into a `colr` box; sRGB pixels get none. An
/// EXIF block the options carry goes into an `Exif` item.
/// One frame: libheif 1.15 writes no image sequences, so an animation keeps its first frame.
struct HEIFEncoder {
    /// Whether libheif has an HEVC encoder (`heif_have_encoder_for_format`).
    static var isAvailable: Bool {
        heif_have_encoder_for_format(heif_compression_HEVC) != 0
    }

    /// `image`'s first frame as HEIC bytes.
    func encode(_ image: Image, options: ImageEncodeOptions) throws -> Data {
        guard Self.isAvailable else {
            throw ImageCodingError.encodingFailed(.heic, "this libheif has no HEVC (x265) encoder")
        }
        let (written, profile) = image.withEmbeddableProfile()
        let pixels = written.pixels
        guard let context = heif_context_alloc() else { throw Self.failure("libheif could not allocate a context") }
        defer { heif_context_free(context) }
        var encoder: OpaquePointer?
        try Self.check(heif_context_get_encoder_for_format(context, heif_compression_HEVC, &encoder))
        guard let encoder else { throw Self.failure("libheif returned no HEVC encoder") }
        defer { heif_encoder_release(encoder) }
        if options.lossless {
            try Self.check(heif_encoder_set_lossless(encoder, 1))
        } else {
            let quality = options.quality.isNaN ? 0.9 : min(1, max(0, options.quality))
            try Self.check(heif_encoder_set_lossy_quality(encoder, Int32((quality * 100).rounded())))
        }
        let heifImage = try Self.image(pixels)
        defer { heif_image_release(heifImage) }
        if let profile {
            try profile.data.withUnsafeBytes { bytes in
                try Self.check(heif_image_set_raw_color_profile(heifImage, "prof", bytes.baseAddress, bytes.count))
            }
        }
        var handle: OpaquePointer?
        try Self.check(heif_context_encode_image(context, heifImage, encoder, nil, &handle))
        defer { heif_image_handle_release(handle) }
        if let exif = options.exif {
            try exif.withUnsafeBytes { bytes in
                try Self.check(heif_context_add_exif_metadata(context, handle, bytes.baseAddress, Int32(clamping: bytes.count)))
            }
        }
        return try Self.write(context)
    }

    /// `pixels` copied into a libheif image, interleaved RGB or RGBA; the caller releases it.
    private static func image(_ pixels: PixelBuffer) throws -> OpaquePointer {
        guard pixels.width > 0, pixels.height > 0, let width = Int32(exactly: pixels.width),
              let height = Int32(exactly: pixels.height) else {
            throw failure("cannot write a \(pixels.width)x\(pixels.height) image")
        }
        let alpha = pixels.hasTransparency
        var created: OpaquePointer?
        try check(heif_image_create(width, height, heif_colorspace_RGB,
                                    alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB, &created))
        guard let image = created else { throw failure("libheif could not create an image") }
        do {
            try check(heif_image_add_plane(image, heif_channel_interleaved, width, height, 8))
            var stride: Int32 = 0
            guard let plane = heif_image_get_plane(image, heif_channel_interleaved, &stride) else {
                throw failure("libheif gave no plane")
            }
            let channels = alpha ? 4 : 3
            pixels.bytes.withUnsafeBufferPointer { source in
                for y in 0..<pixels.height {
                    let row = plane + y * Int(stride)
                    var from = y * pixels.bytesPerRow
                    for x in 0..<pixels.width {
                        for channel in 0..<channels { row[x * channels + channel] = source[from + channel] }
                        from += 4
                    }
                }
            }
            return image
        } catch {
            heif_image_release(image)
            throw error
        }
    }

    /// The file libheif writes for `context`, collected through a `heif_writer`.
    private static func write(_ context: OpaquePointer) throws -> Data {
        final class Sink { var data = Data() }
        let sink = Sink()
        var writer = heif_writer(writer_api_version: 1, write: { _, bytes, size, userdata in
            if let bytes, let userdata {
                Unmanaged<Sink>.fromOpaque(userdata).takeUnretainedValue().data.append(bytes.assumingMemoryBound(to: UInt8.self), count: size)
            }
            return heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: nil)
        })
        try withExtendedLifetime(sink) {
            try check(heif_context_write(context, &writer, Unmanaged.passUnretained(sink).toOpaque()))
        }
        return sink.data
    }

    /// Throws ``ImageCodingError/encodingFailed(_:_:)`` with libheif's message for a failure.
    private static func check(_ error: heif_error) throws {
        guard error.code != heif_error_Ok else { return }
        throw failure(error.message.map { String(cString: $0) } ?? "libheif error \(error.code.rawValue)")
    }

    private static func failure(_ message: String) -> ImageCodingError {
        .encodingFailed(.heic, message)
    }
}
