import CImageQuant
import WebImage

/// A ``PaletteQuantizer`` over libimagequant (pngquant's library, which libvips's palette PNGs
/// and so imgproxy's `IMGPROXY_PNG_QUANTIZE` use), set as libvips sets it: the best quality
/// it can reach (`Q` 100), Floyd–Steinberg dithering at full strength, speed 4 (libvips's
/// default effort 7). A module of its own: libimagequant 2 is GPL-3.0-or-later, so a program
/// that links this module takes on its terms, and one that does not links none of it.
public struct ImageQuantQuantizer: PaletteQuantizer {
    /// libimagequant's speed, 1 (slowest, best) to 10.
    public let speed: Int
    /// The dithering level, 0 (none) to 1 (full Floyd–Steinberg).
    public let dithering: Double

    /// A quantizer at `speed` (clamped to 1…10) and `dithering` (clamped to 0…1).
    public init(speed: Int = 4, dithering: Double = 1) {
        self.speed = min(max(speed, 1), 10)
        self.dithering = dithering.isNaN ? 1 : min(max(dithering, 0), 1)
    }

    /// `pixels` as at most `maxColors` colours (clamped to 2…256).
    public func quantize(_ pixels: PixelBuffer, maxColors: Int) throws(ImageCodingError) -> IndexedPixels {
        guard let width = Int32(exactly: pixels.width), let height = Int32(exactly: pixels.height), width > 0, height > 0 else {
            throw .encodingFailed(.png, "cannot quantize a \(pixels.width)x\(pixels.height) image")
        }
        guard let attributes = liq_attr_create() else { throw .encodingFailed(.png, "libimagequant: out of memory") }
        defer { liq_attr_destroy(attributes) }
        liq_set_max_colors(attributes, Int32(min(max(maxColors, 2), 256)))
        liq_set_speed(attributes, Int32(speed))
        liq_set_quality(attributes, 0, 100)
        let result: Result<IndexedPixels, ImageCodingError> = pixels.bytes.withUnsafeBufferPointer { rgba in
            // Gamma 0: libimagequant's default, sRGB's 1/2.2.
            guard let base = rgba.baseAddress, let image = liq_image_create_rgba(attributes, base, width, height, 0) else {
                return .failure(.encodingFailed(.png, "libimagequant cannot take a \(width)x\(height) image"))
            }
            defer { liq_image_destroy(image) }
            var quantized: OpaquePointer?
            let status = liq_image_quantize(image, attributes, &quantized)
            guard status == LIQ_OK, let quantized else {
                return .failure(.encodingFailed(.png, "libimagequant could not quantize the image (error \(status.rawValue))"))
            }
            defer { liq_result_destroy(quantized) }
            liq_set_dithering_level(quantized, Float(dithering))
            var indices = [UInt8](repeating: 0, count: pixels.width * pixels.height)
            let written = indices.withUnsafeMutableBytes { buffer in
                buffer.baseAddress.map { liq_write_remapped_image(quantized, image, $0, buffer.count) } ?? LIQ_OUT_OF_MEMORY
            }
            // The palette is read after remapping, which refines it.
            guard written == LIQ_OK, let palette = liq_get_palette(quantized) else {
                return .failure(.encodingFailed(.png, "libimagequant could not remap the image (error \(written.rawValue))"))
            }
            let colours = withUnsafeBytes(of: palette.pointee.entries) { entries in
                (0..<Int(palette.pointee.count)).map { i in
                    RGBA(r: entries[i * 4], g: entries[i * 4 + 1], b: entries[i * 4 + 2], a: entries[i * 4 + 3])
                }
            }
            guard let indexed = IndexedPixels(width: pixels.width, height: pixels.height, palette: colours, indices: indices) else {
                return .failure(.encodingFailed(.png, "libimagequant gave a palette of \(colours.count) colours that the indices do not fit"))
            }
            return .success(indexed)
        }
        return try result.get()
    }
}
