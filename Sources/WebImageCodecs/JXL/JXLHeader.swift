import CJXL
import Foundation
import WebImage

/// What a JPEG XL file's headers say, read by libjxl without decoding pixels: the upright
/// canvas, the animation's frames and loop count, the sample depth and the colour profile.
struct JXLHeader {
    /// The canvas with the codestream orientation applied.
    let canvasSize: PixelSize
    /// Each displayed frame's duration in seconds (one 0 for a still).
    let durations: [TimeInterval]
    /// The animation's loop count (0 = forever); 1 for a still.
    let loopCount: Int
    /// Whether samples are deeper than 8 bits (or floating point) and are decoded at 16.
    let deep: Bool
    /// The ICC profile of the pixels libjxl returns.
    let colorSpace: EmbeddedColorSpace

    /// Reads the headers of `bytes`; throws ``ImageCodingError`` for a damaged or cut-short
    /// file, or a canvas over the pixel limit of `options` (checked before any frame is read).
    init(bytes: UnsafeRawBufferPointer, options: ImageDecodeOptions) throws {
        guard let decoder = JxlDecoderCreate(nil) else {
            throw ImageCodingError.corrupt(.jxl, "libjxl could not create a decoder")
        }
        defer { JxlDecoderDestroy(decoder) }
        let events = Int32(JXL_DEC_BASIC_INFO.rawValue | JXL_DEC_COLOR_ENCODING.rawValue | JXL_DEC_FRAME.rawValue)
        guard JxlDecoderSubscribeEvents(decoder, events) == JXL_DEC_SUCCESS,
              JxlDecoderSetInput(decoder, bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count) == JXL_DEC_SUCCESS else {
            throw ImageCodingError.corrupt(.jxl, "libjxl refused the input")
        }
        var info = JxlBasicInfo()
        var canvas: PixelSize?
        var ticks: Double = 0  // seconds per tick
        var durations: [TimeInterval] = []
        var sawLastFrame = false
        var colorSpace = EmbeddedColorSpace.unspecified
        parsing: while true {
            switch JxlDecoderProcessInput(decoder) {
            case JXL_DEC_BASIC_INFO:
                guard JxlDecoderGetBasicInfo(decoder, &info) == JXL_DEC_SUCCESS else {
                    throw ImageCodingError.corrupt(.jxl, "unreadable basic info")
                }
                let swaps = info.orientation.rawValue > 4
                let size = PixelSize(width: Int(swaps ? info.ysize : info.xsize), height: Int(swaps ? info.xsize : info.ysize))
                try options.checkPixelLimit(size)
                canvas = size
                if info.have_animation != 0, info.animation.tps_numerator > 0 {
                    ticks = Double(info.animation.tps_denominator) / Double(info.animation.tps_numerator)
                }
            case JXL_DEC_COLOR_ENCODING:
                colorSpace.iccProfile = Self.iccProfile(decoder)
            case JXL_DEC_FRAME:
                var frame = JxlFrameHeader()
                guard JxlDecoderGetFrameHeader(decoder, &frame) == JXL_DEC_SUCCESS else {
                    throw ImageCodingError.corrupt(.jxl, "unreadable frame header")
                }
                durations.append(Double(frame.duration) * ticks)
                sawLastFrame = frame.is_last != 0
            case JXL_DEC_SUCCESS:
                break parsing
            case JXL_DEC_NEED_MORE_INPUT:
                // Past the last frame libjxl may look for boxes that follow: the file is complete.
                guard sawLastFrame else { throw ImageCodingError.truncated(.jxl) }
                break parsing
            default:
                throw ImageCodingError.corrupt(.jxl, "libjxl could not read the headers")
            }
        }
        guard let canvas else { throw ImageCodingError.truncated(.jxl) }
        guard !durations.isEmpty else { throw ImageCodingError.corrupt(.jxl, "no frames") }
        self.canvasSize = canvas
        self.durations = info.have_animation != 0 ? durations : durations.map { _ in 0 }
        self.loopCount = info.have_animation != 0 ? Int(info.animation.num_loops) : 1
        self.deep = info.bits_per_sample > 8 || info.exponent_bits_per_sample > 0
        self.colorSpace = colorSpace
    }

    /// The ICC profile of the pixels libjxl returns (generated from the colour encoding when
    /// the file has no ICC profile of its own), or nil when libjxl has none to give.
    private static func iccProfile(_ decoder: OpaquePointer) -> [UInt8]? {
        var size = 0
        guard JxlDecoderGetICCProfileSize(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &size) == JXL_DEC_SUCCESS,
              size > 0 else { return nil }
        var profile = [UInt8](repeating: 0, count: size)
        guard JxlDecoderGetColorAsICCProfile(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &profile, size)
                == JXL_DEC_SUCCESS else { return nil }
        return profile
    }
}
