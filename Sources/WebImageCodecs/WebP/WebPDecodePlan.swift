import CWebP
import WebImage

/// The size a still WebP image is decoded to, chosen before any pixel memory is allocated.
///
/// A thumbnail or scale-down target smaller than the stored size is reached by libwebp's own
/// scaling while it decodes, so the full-size pixels are never held in memory; the pixel limit
/// is checked on the size actually decoded.
struct WebPDecodePlan: Equatable {
    /// The size stored in the bitstream (before orientation).
    let storedSize: PixelSize
    /// The size libwebp decodes to, in the stored (not yet upright) orientation.
    let decodedSize: PixelSize
    /// The EXIF orientation, applied after decoding.
    let orientation: ImageOrientation
    /// Whether the decoded alpha must be replaced by opaque: the bitstream declares no alpha,
    /// yet a lossless one can still decode to transparent pixels (a palette index past the
    /// palette's end gives transparent black). Viewers such as `dwebp` and Pillow decode
    /// such an image as RGB, so it shows opaque.
    let forcesOpaque: Bool

    /// The plan for an image with `features` and `orientation` under `options`; throws
    /// ``ImageCodingError/tooManyPixels(width:height:limit:)`` when even the decoded size is too large.
    init(features: WebPBitstreamFeatures, orientation: ImageOrientation,
         options: ImageDecodeOptions) throws(ImageCodingError) {
        let stored = PixelSize(width: Int(features.width), height: Int(features.height))
        let swaps = orientation.swapsDimensions
        let upright = swaps ? PixelSize(width: stored.height, height: stored.width) : stored
        let target = options.targetSize(for: upright)
        let decoded = swaps ? PixelSize(width: target.height, height: target.width) : target
        try options.checkPixelLimit(decoded)
        self.storedSize = stored
        self.decodedSize = decoded
        self.orientation = orientation
        // Lossy bitstreams without an alpha chunk always decode opaque: no pass needed.
        self.forcesOpaque = features.has_alpha == 0 && features.format != 1
    }

    /// The number of bytes of RGBA8 pixels at ``decodedSize``.
    var byteCount: Int { decodedSize.area * 4 }

    /// Sets `config` up to decode non-premultiplied RGBA at ``decodedSize`` into `output`
    /// (``byteCount`` bytes), which libwebp writes directly.
    func configure(_ config: inout WebPDecoderConfig, output: UnsafeMutableBufferPointer<UInt8>) {
        if decodedSize != storedSize {
            config.options.use_scaling = 1
            config.options.scaled_width = Int32(decodedSize.width)
            config.options.scaled_height = Int32(decodedSize.height)
        }
        // libwebp filters each macroblock row on a second thread while it parses the next, as
        // libvips has it do: a still image's decode takes less time for the same work.
        config.options.use_threads = 1
        config.output.colorspace = MODE_RGBA
        config.output.is_external_memory = 1
        config.output.u.RGBA.rgba = output.baseAddress
        config.output.u.RGBA.stride = Int32(decodedSize.width * 4)
        config.output.u.RGBA.size = output.count
    }

    /// Sets the alpha of the first `rows` decoded rows in `output` to opaque when
    /// ``forcesOpaque`` says so.
    func finish(_ output: UnsafeMutableBufferPointer<UInt8>, rows: Int) {
        guard forcesOpaque else { return }
        let end = min(rows * decodedSize.width * 4, output.count)
        for alpha in stride(from: 3, to: end, by: 4) { output[alpha] = 255 }
    }
}
