import CJXL
import Foundation
import WebImage

/// Writes JPEG XL stills and animations with libjxl's encoder (`JxlEncoder`).
///
/// Quality 0–100 becomes a Butteraugli distance as cjxl maps it (100 → lossless; from 30 up
/// `0.1 + (100 − q) × 0.09`, so 90 → 1.0; below 30 the distance grows exponentially); lossy
/// frames are stored in XYB, lossless ones as the RGB(A) given. The pixels are tagged sRGB.
/// Alpha is written only when some pixel is not opaque. Animations keep each frame's duration
/// (millisecond ticks) and the loop count.
struct JXLEncoder {
    /// libjxl's effort, 1 (fastest) to 9 (smallest files).
    let effort: Int

    /// The Butteraugli distance for `quality` (0–1, as ``ImageEncodeOptions/quality``).
    static func distance(quality: Double) -> Float {
        let q = min(max(quality, 0), 1) * 100
        if q >= 100 { return 0 }
        return Float(q >= 30 ? 0.1 + (100 - q) * 0.09 : 6.4 + pow(2.5, (30 - q) / 5) / 6.25)
    }

    /// `image` as JPEG XL bytes: every frame (an animation) unless `options` asks for the first.
    /// The file declares sRGB, so pixels in another profile's space are converted to sRGB first.
    func encode(_ source: Image, options: ImageEncodeOptions) throws -> Data {
        let image = source.inSRGB()
        let frames = options.firstFrameOnly ? [image.frames[0]] : image.frames
        let alpha = frames.contains { $0.pixels.hasTransparency }
        let distance = options.lossless ? 0 : Self.distance(quality: options.quality)
        let lossless = distance == 0
        guard let encoder = JxlEncoderCreate(nil) else {
            throw ImageCodingError.encodingFailed(.jxl, "libjxl could not create an encoder")
        }
        defer { JxlEncoderDestroy(encoder) }
        var info = JxlBasicInfo()
        JxlEncoderInitBasicInfo(&info)
        info.xsize = UInt32(image.pixelWidth)
        info.ysize = UInt32(image.pixelHeight)
        info.bits_per_sample = 8
        info.num_color_channels = 3
        info.alpha_bits = alpha ? 8 : 0
        info.num_extra_channels = alpha ? 1 : 0
        info.uses_original_profile = lossless ? 1 : 0
        if frames.count > 1 {
            info.have_animation = 1
            info.animation.tps_numerator = 1000
            info.animation.tps_denominator = 1
            info.animation.num_loops = UInt32(clamping: image.loopCount)
        }
        try check(JxlEncoderSetBasicInfo(encoder, &info), encoder)
        var color = JxlColorEncoding()
        JxlColorEncodingSetToSRGB(&color, 0)
        try check(JxlEncoderSetColorEncoding(encoder, &color), encoder)
        guard let settings = JxlEncoderFrameSettingsCreate(encoder, nil) else {
            throw ImageCodingError.encodingFailed(.jxl, "libjxl could not create frame settings")
        }
        try check(JxlEncoderFrameSettingsSetOption(settings, JXL_ENC_FRAME_SETTING_EFFORT, Int64(min(max(effort, 1), 9))), encoder)
        try check(lossless ? JxlEncoderSetFrameLossless(settings, 1) : JxlEncoderSetFrameDistance(settings, distance), encoder)
        var format = JxlPixelFormat(num_channels: alpha ? 4 : 3, data_type: JXL_TYPE_UINT8,
                                    endianness: JXL_NATIVE_ENDIAN, align: 0)
        for frame in frames {
            if frames.count > 1 {
                var header = JxlFrameHeader()
                JxlEncoderInitFrameHeader(&header)
                header.duration = UInt32(max(1, (frame.duration * 1000).rounded()))
                try check(JxlEncoderSetFrameHeader(settings, &header), encoder)
            }
            let samples = alpha ? frame.pixels.bytes : RGBASamples.rgb(frame.pixels.bytes)
            try samples.withUnsafeBytes { buffer in
                try check(JxlEncoderAddImageFrame(settings, &format, buffer.baseAddress, buffer.count), encoder)
            }
        }
        JxlEncoderCloseInput(encoder)
        return try output(of: encoder)
    }

    /// Everything the encoder writes, in chunks that grow as it asks for more room.
    private func output(of encoder: OpaquePointer) throws -> Data {
        var output = [UInt8](repeating: 0, count: 64 * 1024)
        var written = 0
        while true {
            let status = output.withUnsafeMutableBufferPointer { buffer -> JxlEncoderStatus in
                var next: UnsafeMutablePointer<UInt8>? = buffer.baseAddress! + written
                var available = buffer.count - written
                let status = JxlEncoderProcessOutput(encoder, &next, &available)
                written = buffer.count - available
                return status
            }
            switch status {
            case JXL_ENC_SUCCESS:
                return Data(output.prefix(written))
            case JXL_ENC_NEED_MORE_OUTPUT:
                output.append(contentsOf: [UInt8](repeating: 0, count: output.count))
            default:
                try check(status, encoder)
            }
        }
    }

    private func check(_ status: JxlEncoderStatus, _ encoder: OpaquePointer) throws {
        guard status != JXL_ENC_SUCCESS else { return }
        let reason = switch JxlEncoderGetError(encoder) {
        case JXL_ENC_ERR_OOM: "out of memory"
        case JXL_ENC_ERR_BAD_INPUT: "bad input"
        case JXL_ENC_ERR_NOT_SUPPORTED: "not supported by libjxl"
        case JXL_ENC_ERR_API_USAGE: "API usage error"
        default: "libjxl error"
        }
        throw ImageCodingError.encodingFailed(.jxl, reason)
    }
}
