import CHEIF
import Foundation
import WebImage

/// One HEIF file parsed by libheif: its primary image's size, depth and colour space, decoded
/// on demand.
///
/// Owns a copy of the file's bytes (libheif reads them in place for as long as the context
/// lives) and the `heif_context`, together in a ``DecoderInput``, and the primary image's
/// handle, released in `deinit` before them.
final class HEIFFile {
    /// The primary image's size as it decodes: `irot`, `imir` and `clap` applied.
    let size: PixelSize
    /// The colour space the primary image declares (`colr` boxes), for colour management.
    let colorSpace: EmbeddedColorSpace

    /// The format the file was read as (HEIC, HEIF or AVIF).
    let format: ImageFormat
    private let input: DecoderInput<OpaquePointer>
    private var bytes: UnsafeRawBufferPointer { input.bytes }
    private var context: OpaquePointer { input.decoder }
    private let primary: OpaquePointer

    /// libheif's own limit on a side, which it checks on every image and tile it reads.
    private static let largestSide = 32_768

    /// `heif_init`, once per process before the first context (Swift runs a static's
    /// initialiser once, thread-safely): it registers libheif's decoder plugins, which libheif
    /// would otherwise do lazily from whichever decode comes first.
    private static let libraryInitialised: Bool = heif_init(nil).code == heif_error_Ok

    /// Parses `data` and finds its primary image; throws ``ImageCodingError`` if it is not a
    /// readable HEIF file or the image exceeds the pixel limit of `options`.
    init(data: Data, format: ImageFormat, options: ImageDecodeOptions) throws {
        let input = try DecoderInput(copying: data, create: { Self.libraryInitialised ? heif_context_alloc() : nil },
                                     destroy: { heif_context_free($0) },
                                     failure: .corrupt(format, "libheif could not be initialised or create a context"))
        let (context, bytes) = (input.decoder, input.bytes)
        // A tile or image larger than the whole limit on one side is refused while parsing.
        let side = options.maxPixels > 0 ? min(Self.largestSide, options.maxPixels) : Self.largestSide
        heif_context_set_maximum_image_size_limit(context, Int32(side))
        try Self.check(heif_context_read_from_memory_without_copy(context, bytes.baseAddress, bytes.count, nil), format, bytes)
        var found: OpaquePointer?
        try Self.check(heif_context_get_primary_image_handle(context, &found), format, bytes)
        guard let handle = found else { throw ImageCodingError.corrupt(format, "no primary image") }
        let size = PixelSize(width: Int(heif_image_handle_get_width(handle)), height: Int(heif_image_handle_get_height(handle)))
        do {
            guard size.width > 0, size.height > 0 else {
                throw ImageCodingError.corrupt(format, "image has no pixels (\(size))")
            }
            try options.checkPixelLimit(size)
        } catch {
            heif_image_handle_release(handle)
            throw error
        }
        self.size = size
        colorSpace = Self.colorSpace(of: handle)
        self.format = format
        self.input = input
        primary = handle
    }

    deinit {
        // Before the context, which `input` frees after this.
        heif_image_handle_release(primary)
    }

    /// The primary image at `size`: decoded from the smallest thumbnail item that covers it,
    /// else from the image itself, then resampled when the decoded size differs.
    func decodePrimary(size target: PixelSize) throws -> PixelBuffer {
        var pixels: PixelBuffer
        if target != size, let thumbnail = thumbnail(covering: target) {
            defer { heif_image_handle_release(thumbnail) }
            pixels = try decode(thumbnail)
        } else {
            pixels = try decode(primary)
        }
        if pixels.size != target {
            pixels = Resampler.resize(pixels, to: target)
        }
        return pixels
    }

    /// The file's own largest thumbnail item, decoded at the size `target` gives for its size
    /// (imgproxy's `enforce_thumbnail`: the thumbnail stands for the image), or nil when the
    /// file has none with pixels.
    func decodeLargestThumbnail(size target: (PixelSize) -> PixelSize) throws -> PixelBuffer? {
        guard let thumbnail = thumbnail(where: { _ in true }, preferring: >) else { return nil }
        defer { heif_image_handle_release(thumbnail) }
        var pixels = try decode(thumbnail)
        let size = target(pixels.size)
        if pixels.size != size { pixels = Resampler.resize(pixels, to: size) }
        return pixels
    }

    /// The handle of the smallest thumbnail at least as large as `target` on both sides with
    /// the primary image's shape, or nil; the caller releases it.
    private func thumbnail(covering target: PixelSize) -> OpaquePointer? {
        thumbnail(where: { thumbnail in
            // The same shape: a thumbnail of the other orientation or a crop would show a different picture.
            let sameShape = abs(thumbnail.width * size.height - thumbnail.height * size.width) <= max(size.width, size.height)
            return sameShape && thumbnail.width >= target.width && thumbnail.height >= target.height
        }, preferring: <)
    }

    /// The handle of the thumbnail with pixels satisfying `isWanted` whose area is preferred
    /// (`<` the smallest, `>` the largest), or nil; the caller releases it.
    private func thumbnail(where isWanted: (PixelSize) -> Bool, preferring: (Int, Int) -> Bool) -> OpaquePointer? {
        let count = Int(heif_image_handle_get_number_of_thumbnails(primary))
        guard count > 0 else { return nil }
        var ids = [heif_item_id](repeating: 0, count: count)
        let listed = Int(heif_image_handle_get_list_of_thumbnail_IDs(primary, &ids, Int32(count)))
        var best: (handle: OpaquePointer, area: Int)?
        for id in ids.prefix(listed) {
            var handle: OpaquePointer?
            guard heif_image_handle_get_thumbnail(primary, id, &handle).code == heif_error_Ok, let handle else { continue }
            let thumbnail = PixelSize(width: Int(heif_image_handle_get_width(handle)), height: Int(heif_image_handle_get_height(handle)))
            if thumbnail.width > 0, thumbnail.height > 0, isWanted(thumbnail), best.map({ preferring(thumbnail.area, $0.area) }) ?? true {
                if let previous = best { heif_image_handle_release(previous.handle) }
                best = (handle, thumbnail.area)
            } else {
                heif_image_handle_release(handle)
            }
        }
        return best?.handle
    }

    /// The image of `handle` decoded to RGBA8: transforms applied, deeper samples rounded,
    /// premultiplied alpha undone.
    private func decode(_ handle: OpaquePointer) throws -> PixelBuffer {
        let alpha = heif_image_handle_has_alpha_channel(handle) != 0
        let deep = heif_image_handle_get_luma_bits_per_pixel(handle) > 8
        let chroma = switch (alpha, deep) {
        case (false, false): heif_chroma_interleaved_RGB
        case (true, false): heif_chroma_interleaved_RGBA
        case (false, true): heif_chroma_interleaved_RRGGBB_LE
        case (true, true): heif_chroma_interleaved_RRGGBBAA_LE
        }
        guard let options = heif_decoding_options_alloc() else {
            throw ImageCodingError.corrupt(format, "libheif could not allocate decoding options")
        }
        defer { heif_decoding_options_free(options) }
        options.pointee.convert_hdr_to_8bit = 0  // libheif truncates; RGBASamples rounds
        var image: OpaquePointer?
        try Self.check(heif_decode_image(handle, &image, heif_colorspace_RGB, chroma, options), format, bytes)
        guard let image else { throw ImageCodingError.corrupt(format, "libheif decoded no image") }
        defer { heif_image_release(image) }
        let width = Int(heif_image_get_width(image, heif_channel_interleaved))
        let height = Int(heif_image_get_height(image, heif_channel_interleaved))
        var stride: Int32 = 0
        guard width > 0, height > 0, let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride) else {
            throw ImageCodingError.corrupt(format, "libheif returned no pixels")
        }
        let bitDepth = deep ? Int(heif_image_get_bits_per_pixel_range(image, heif_channel_interleaved)) : 8
        guard (8...16).contains(bitDepth) else {
            throw ImageCodingError.unsupportedFeature(format, "\(bitDepth)-bit samples")
        }
        var pixels = RGBASamples.pixels(plane, stride: Int(stride), width: width, height: height,
                                        channels: alpha ? 4 : 3, bitDepth: bitDepth)
        // The decoded image says whether its colour is still premultiplied (the handle only
        // says how it was stored).
        if alpha, heif_image_is_premultiplied_alpha(image) != 0 {
            pixels = RGBASamples.unpremultiplied(pixels)
        }
        return pixels
    }

    /// The ICC profile (`prof`/`rICC`) and the `nclx` code points of `handle`, where present.
    private static func colorSpace(of handle: OpaquePointer) -> EmbeddedColorSpace {
        var space = EmbeddedColorSpace()
        let iccSize = heif_image_handle_get_raw_color_profile_size(handle)
        if iccSize > 0 {
            var icc = [UInt8](repeating: 0, count: iccSize)
            if heif_image_handle_get_raw_color_profile(handle, &icc).code == heif_error_Ok { space.iccProfile = icc }
        }
        var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
        let result = heif_image_handle_get_nclx_color_profile(handle, &nclx)
        // libheif 1.15 allocates the profile before it checks its values, and keeps it on error.
        defer { if let nclx { heif_nclx_color_profile_free(nclx) } }
        if result.code == heif_error_Ok, let nclx {
            space.codePoints = ColorCodePoints(
                primaries: UInt16(nclx.pointee.color_primaries.rawValue),
                transfer: UInt16(nclx.pointee.transfer_characteristics.rawValue),
                matrix: UInt16(nclx.pointee.matrix_coefficients.rawValue),
                fullRange: nclx.pointee.full_range_flag != 0)
        }
        return space
    }

    private static func check(_ error: heif_error, _ format: ImageFormat, _ bytes: UnsafeRawBufferPointer) throws {
        if let failure = HEIFError.error(for: error, format: format, file: bytes) { throw failure }
    }
}
