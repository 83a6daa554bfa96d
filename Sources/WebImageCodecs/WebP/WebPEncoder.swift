import CWebP
import Foundation
import WebImage

/// Encodes RGBA pixels as WebP with libwebp's advanced API, so that still images
/// (`WebPEncode`) and animations (`WebPAnimEncoder`) share one configuration.
///
/// Lossless output keeps the exact colour of fully transparent pixels (`WebPConfig.exact`), so
/// a lossless round trip returns identical RGBA. Quality maps 0…1 to libwebp's 0…100; it does
/// not apply to lossless output. ``effort`` is libwebp's `method` for both, and ``preset``
/// the starting point of a lossy configuration (`WebPConfigPreset`). Animations keep their
/// loop count and millisecond durations; libwebp merges a frame identical to the one before
/// it into that frame (adding up their durations).
struct WebPEncoder {
    /// The largest width or height WebP can store.
    static let maxDimension = 16383

    /// What to encode and how.
    let options: ImageEncodeOptions
    /// libwebp's `method`, 0 (fastest) to 6 (smallest files).
    let effort: Int
    /// The preset a lossy configuration starts from.
    let preset: WebPEncodingPreset

    /// `image` as WebP bytes: an animation when it has several frames (unless the options ask
    /// for the first frame only), a still image otherwise; with an `ICCP` chunk when the image
    /// carries an RGB ``Image/colorProfile``, an `EXIF` chunk when the options carry a block.
    func encode(_ image: Image) throws(ImageCodingError) -> Data {
        var config = try makeConfig()
        let (written, profile) = image.withEmbeddableProfile()
        guard written.frames.count > 1 && !options.firstFrameOnly else {
            return try WebPMetadataChunks.embedding(profile, exif: options.exif, in: try encodeStill(written.pixels, config: &config))
        }
        var data = try WebPMetadataChunks.embedding(profile, exif: options.exif, in: try encodeAnimation(written, config: &config))
        if written.frames.contains(where: { $0.pixels.hasTransparency }) { Self.setAlphaFlag(&data) }
        return data
    }

    private func makeConfig() throws(ImageCodingError) -> WebPConfig {
        var config = WebPConfig()
        let quality = options.quality.isFinite ? min(max(options.quality, 0), 1) : 0.9
        let preset = options.contentKind.map(WebPEncodingPreset.init(kind:)) ?? preset
        guard WebPConfigPreset(&config, preset.libwebpPreset, Float(quality * 100)) != 0 else {
            throw .encodingFailed(.webp, "libwebp version mismatch")
        }
        config.method = Int32(min(max(effort, 0), 6))
        if options.lossless {
            // Lossless quality is how hard libwebp compresses: its default, whatever the options' quality.
            config.lossless = 1
            config.exact = 1
            config.quality = 75
        } else if options.nearLossless {
            // libwebp's near-lossless preprocessing rounds values as far as its level allows: the quality.
            config.lossless = 1
            config.near_lossless = Int32((quality * 100).rounded())
            config.quality = 75
        } else if options.sharpYUV {
            config.use_sharp_yuv = 1
        }
        guard WebPValidateConfig(&config) != 0 else { throw .encodingFailed(.webp, "invalid configuration") }
        return config
    }

    private func encodeStill(_ pixels: PixelBuffer, config: inout WebPConfig) throws(ImageCodingError) -> Data {
        try withPicture(of: pixels) { picture throws(ImageCodingError) in
            var writer = WebPMemoryWriter()
            WebPMemoryWriterInit(&writer)
            defer { WebPMemoryWriterClear(&writer) }
            let succeeded = withUnsafeMutablePointer(to: &writer) { writer in
                picture.writer = WebPMemoryWrite
                picture.custom_ptr = UnsafeMutableRawPointer(writer)
                defer { picture.custom_ptr = nil }
                return WebPEncode(&config, &picture)
            }
            guard succeeded != 0, let bytes = writer.mem else {
                throw .encodingFailed(.webp, Self.describe(picture.error_code))
            }
            return Data(bytes: bytes, count: writer.size)
        }
    }

    private func encodeAnimation(_ image: Image, config: inout WebPConfig) throws(ImageCodingError) -> Data {
        let width = image.pixelWidth, height = image.pixelHeight
        try Self.checkSize(width: width, height: height)
        var animationOptions = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&animationOptions) != 0 else {
            throw .encodingFailed(.webp, "libwebp version mismatch")
        }
        animationOptions.anim_params.loop_count = Int32(clamping: image.loopCount)
        guard let encoder = WebPAnimEncoderNew(Int32(width), Int32(height), &animationOptions) else {
            throw .encodingFailed(.webp, "libwebp could not create an animation encoder")
        }
        defer { WebPAnimEncoderDelete(encoder) }
        var timestamp: Int32 = 0
        for frame in image.frames {
            guard frame.pixels.width == width, frame.pixels.height == height else {
                throw .encodingFailed(.webp, "animation frames differ in size")
            }
            try withPicture(of: frame.pixels) { picture throws(ImageCodingError) in
                guard WebPAnimEncoderAdd(encoder, &picture, timestamp, &config) != 0 else {
                    throw .encodingFailed(.webp, Self.describe(encoder))
                }
            }
            timestamp = timestamp.addingReportingOverflow(Self.milliseconds(frame.duration)).partialValue
            guard timestamp >= 0 else { throw .encodingFailed(.webp, "animation longer than libwebp's timestamps allow") }
        }
        guard WebPAnimEncoderAdd(encoder, nil, timestamp, nil) != 0 else {
            throw .encodingFailed(.webp, Self.describe(encoder))
        }
        var output = WebPData()
        guard WebPAnimEncoderAssemble(encoder, &output) != 0, let bytes = output.bytes else {
            throw .encodingFailed(.webp, Self.describe(encoder))
        }
        defer { WebPDataClear(&output) }
        return Data(bytes: bytes, count: output.size)
    }

    /// Sets the alpha flag of the `VP8X` header. libwebp sets it only when a stored frame has
    /// alpha, but it crops frames to what they draw, so an animation whose transparency lies
    /// only around those rectangles comes out without it, and readers that trust the flag
    /// (Pillow) then show the transparent canvas as opaque black.
    private static func setAlphaFlag(_ data: inout Data) {
        let vp8x = Array("VP8X".utf8)
        let start = data.startIndex
        guard data.count > 20, Array(data[start + 12..<start + 16]) == vp8x else { return }
        data[start + 20] |= 0x10
    }

    /// Runs `body` with a libwebp picture holding a copy of `pixels` (as ARGB), then frees it.
    private func withPicture<T>(
        of pixels: PixelBuffer, _ body: (inout WebPPicture) throws(ImageCodingError) -> T
    ) throws(ImageCodingError) -> T {
        try Self.checkSize(width: pixels.width, height: pixels.height)
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else { throw .encodingFailed(.webp, "libwebp version mismatch") }
        picture.use_argb = 1
        picture.width = Int32(pixels.width)
        picture.height = Int32(pixels.height)
        let imported = pixels.bytes.withUnsafeBufferPointer {
            WebPPictureImportRGBA(&picture, $0.baseAddress, Int32(pixels.bytesPerRow))
        }
        defer { WebPPictureFree(&picture) }
        guard imported != 0 else { throw .encodingFailed(.webp, Self.describe(picture.error_code)) }
        return try body(&picture)
    }

    private static func checkSize(width: Int, height: Int) throws(ImageCodingError) {
        guard (1...maxDimension).contains(width), (1...maxDimension).contains(height) else {
            throw .encodingFailed(.webp, "\(width)x\(height) is outside WebP's 1…\(maxDimension) pixels a side")
        }
    }

    /// A frame duration in whole milliseconds, as libwebp's timestamps count.
    private static func milliseconds(_ seconds: TimeInterval) -> Int32 {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return Int32(min(seconds * 1000, Double(Int32.max)).rounded())
    }

    private static func describe(_ encoder: OpaquePointer) -> String {
        guard let message = WebPAnimEncoderGetError(encoder), message.pointee != 0 else {
            return "libwebp's animation encoder failed"
        }
        return String(cString: message)
    }

    private static func describe(_ error: WebPEncodingError) -> String {
        switch error {
        case VP8_ENC_ERROR_OUT_OF_MEMORY, VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY: "out of memory"
        case VP8_ENC_ERROR_BAD_DIMENSION: "bad picture dimensions"
        case VP8_ENC_ERROR_PARTITION0_OVERFLOW, VP8_ENC_ERROR_PARTITION_OVERFLOW: "a partition is too big"
        case VP8_ENC_ERROR_FILE_TOO_BIG: "the file would exceed 4 GiB"
        case VP8_ENC_ERROR_INVALID_CONFIGURATION: "invalid configuration"
        default: "libwebp error \(error.rawValue)"
        }
    }
}
