import CWebP
import WebImage

/// Decodes the first bytes of a still WebP download with libwebp's incremental decoder:
/// the rows that have arrived, the rest transparent.
enum WebPPartialDecoder {
    /// The image so far, at the size a full decode with `options` would have; `nil` while the
    /// header is incomplete, for animations (whose frames are shown once complete), and for
    /// bytes libwebp rejects.
    static func decode(_ bytes: UnsafeRawBufferPointer, options: ImageDecodeOptions) -> Image? {
        guard let base = bytes.baseAddress,
              let features = try? WebPFeatures.read(bytes), features.has_animation == 0,
              case let metadata = WebPMetadata(bytes),
              let plan = try? WebPDecodePlan(features: features, orientation: metadata.orientation, options: options)
        else { return nil }
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else { return nil }
        var pixels = [UInt8](repeating: 0, count: plan.byteCount)
        let rowBytes = plan.decodedSize.width * 4
        let finished: Bool? = pixels.withUnsafeMutableBufferPointer { buffer in
            // The incremental decoder keeps pointers to `config`'s output and options: they
            // must stay put for its whole life, which ends inside this closure.
            withUnsafeMutablePointer(to: &config) { config in
                plan.configure(&config.pointee, output: buffer)
                guard let decoder = WebPIDecode(nil, 0, config) else { return nil }
                defer { WebPIDelete(decoder) }
                let status = WebPIUpdate(decoder, base.assumingMemoryBound(to: UInt8.self), bytes.count)
                guard status == VP8_STATUS_OK || status == VP8_STATUS_SUSPENDED else { return nil }
                var lastRow: Int32 = 0
                if WebPIDecGetRGB(decoder, &lastRow, nil, nil, nil) == nil { lastRow = 0 }
                let rows = min(max(Int(lastRow), 0), plan.decodedSize.height)
                // Rows not reported as decoded are shown transparent, whatever libwebp left there.
                let rest = UnsafeMutableBufferPointer(rebasing: buffer[(rows * rowBytes)...])
                rest.update(repeating: 0)
                plan.finish(buffer, rows: rows)
                return status == VP8_STATUS_OK
            }
        }
        guard let finished else { return nil }
        var decoded = PixelBuffer(width: plan.decodedSize.width, height: plan.decodedSize.height, bytes: pixels)
        var color = EmbeddedColorProfile(iccData: metadata.iccProfile, samples: .rgb, management: options.colorManagement)
        color.convert(&decoded)
        var image = Image(pixels: decoded.applying(plan.orientation), scale: options.scaleFactor, format: .webp,
                          orientation: plan.orientation)
        color.label(&image)
        image.isIncomplete = !finished
        return image
    }
}
