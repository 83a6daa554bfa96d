import CWebP
import WebImage

/// Decodes a still (not animated) WebP image, lossy or lossless, with or without alpha,
/// straight into the buffer the ``Image`` keeps.
enum WebPStillDecoder {
    /// Decodes the still WebP image in `bytes`, whose features are `features`, converted to
    /// sRGB through its `ICCP` profile unless `options` keep the stored colours.
    static func decode(_ bytes: UnsafeRawBufferPointer, features: WebPBitstreamFeatures,
                       options: ImageDecodeOptions) throws(ImageCodingError) -> Image {
        guard let base = bytes.baseAddress else { throw .empty }
        let metadata = WebPMetadata(bytes)
        let plan = try WebPDecodePlan(features: features, orientation: metadata.orientation, options: options)
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else { throw .corrupt(.webp, "libwebp version mismatch") }
        config.input = features
        var status = VP8_STATUS_OK
        let count = plan.byteCount
        let bytesOut = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            PixelBuffer.adviseHugePages(UnsafeMutableRawBufferPointer(buffer))
            plan.configure(&config, output: buffer)
            status = WebPDecode(base.assumingMemoryBound(to: UInt8.self), bytes.count, &config)
            WebPFreeDecBuffer(&config.output)
            if status == VP8_STATUS_OK { plan.finish(buffer, rows: plan.decodedSize.height) }
            // On success libwebp has written every row; on failure the array is left empty.
            initialized = status == VP8_STATUS_OK ? count : 0
        }
        guard status == VP8_STATUS_OK else { throw .webp(status) }
        var pixels = PixelBuffer(width: plan.decodedSize.width, height: plan.decodedSize.height, bytes: bytesOut)
        var color = EmbeddedColorProfile(iccData: metadata.iccProfile, samples: .rgb, management: options.colorManagement)
        color.convert(&pixels)
        var image = Image(pixels: pixels.applying(plan.orientation), scale: options.scaleFactor,
                          format: .webp, orientation: plan.orientation)
        color.label(&image)
        return image
    }
}
