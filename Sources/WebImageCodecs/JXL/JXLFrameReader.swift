import CJXL
import Foundation
import WebImage

/// The frames of one JPEG XL file (a still is a one-frame animation), decoded by libjxl on
/// demand.
///
/// libjxl applies the codestream orientation and coalesces animation frames into full canvases
/// (blending and frames smaller than the canvas handled), so ``canvasSize`` is the upright
/// size and ``orientation`` is `.up`. Samples deeper than 8 bits are decoded at 16 bits and
/// rounded to 8; associated alpha is unpremultiplied. The input is never closed: libjxl then
/// asks for more where the bytes end early, which is how a cut-short file is told from a
/// damaged one. Owns a copy of the file's bytes and one `JxlDecoder` (a ``DecoderInput``),
/// which reads frames in order: reading the next frame continues where the last one ended, any
/// other rewinds and skips to it.
final class JXLFrameReader: ColorConvertingFrameReader {
    let canvasSize: PixelSize
    let frameCount: Int
    let loopCount: Int
    /// The ICC profile describing the pixels libjxl returns (sRGB for lossy XYB files).
    let colorSpace: EmbeddedColorSpace
    /// The ICC profile and what to do with it; every frame returned goes through it.
    var color: EmbeddedColorProfile

    private let durations: [TimeInterval]
    private let deep: Bool
    private let input: DecoderInput<OpaquePointer>
    private var bytes: UnsafeRawBufferPointer { input.bytes }
    private var decoder: OpaquePointer { input.decoder }
    /// The frame the decoder reaches next without rewinding; nil before the first read and
    /// after a failure.
    private var nextFrame: Int?

    /// Parses the headers and frame headers of `data`; throws ``ImageCodingError`` if it is not
    /// a readable JPEG XL file or its canvas exceeds the pixel limit of `options`.
    init(data: Data, options: ImageDecodeOptions) throws {
        if data.isEmpty { throw ImageCodingError.empty }
        let input = try DecoderInput(copying: data, create: { JxlDecoderCreate(nil) }, destroy: { JxlDecoderDestroy($0) },
                                     failure: .corrupt(.jxl, "libjxl could not create a decoder"))
        let header = try JXLHeader(bytes: input.bytes, options: options)
        (canvasSize, frameCount, loopCount) = (header.canvasSize, header.durations.count, header.loopCount)
        (durations, deep, colorSpace) = (header.durations, header.deep, header.colorSpace)
        color = EmbeddedColorProfile(iccDataOfRGBA: colorSpace.iccProfile, management: options.colorManagement)
        self.input = input
    }

    /// The frame's duration from its header, in seconds; 0 for a still.
    func duration(at index: Int) -> TimeInterval {
        durations.indices.contains(index) ? durations[index] : 0
    }

    /// Decodes frame `index`, composited onto the canvas and upright, into RGBA8.
    func decodedFrame(at index: Int) throws -> PixelBuffer {
        guard index >= 0, index < frameCount else {
            throw ImageCodingError.corrupt(.jxl, "no frame \(index) in \(frameCount)")
        }
        if nextFrame != index {
            // libjxl 0.7's rewind also forgets the subscribed events and settings: set them again.
            JxlDecoderRewind(decoder)
            let events = Int32(JXL_DEC_FRAME.rawValue | JXL_DEC_FULL_IMAGE.rawValue)
            guard JxlDecoderSubscribeEvents(decoder, events) == JXL_DEC_SUCCESS,
                  JxlDecoderSetUnpremultiplyAlpha(decoder, 1) == JXL_DEC_SUCCESS,
                  JxlDecoderSetInput(decoder, bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count) == JXL_DEC_SUCCESS else {
                throw ImageCodingError.corrupt(.jxl, "libjxl refused the decoder settings")
            }
            JxlDecoderSkipFrames(decoder, index)
        }
        nextFrame = nil  // until this frame is complete
        let bytesPerSample = deep ? 2 : 1
        var format = JxlPixelFormat(num_channels: 4, data_type: deep ? JXL_TYPE_UINT16 : JXL_TYPE_UINT8,
                                    endianness: JXL_LITTLE_ENDIAN, align: 0)
        let rowBytes = canvasSize.width * 4 * bytesPerSample
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: rowBytes * canvasSize.height, alignment: 2)
        defer { buffer.deallocate() }
        while true {
            switch JxlDecoderProcessInput(decoder) {
            case JXL_DEC_FRAME:
                continue
            case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
                var size = 0
                guard JxlDecoderImageOutBufferSize(decoder, &format, &size) == JXL_DEC_SUCCESS, size == buffer.count,
                      JxlDecoderSetImageOutBuffer(decoder, &format, buffer.baseAddress, size) == JXL_DEC_SUCCESS else {
                    throw ImageCodingError.corrupt(.jxl, "frame \(index) does not have the canvas size \(canvasSize)")
                }
            case JXL_DEC_FULL_IMAGE:
                nextFrame = index + 1
                return RGBASamples.pixels(UnsafeRawPointer(buffer.baseAddress!), stride: rowBytes,
                                          width: canvasSize.width, height: canvasSize.height,
                                          channels: 4, bitDepth: deep ? 16 : 8)
            case JXL_DEC_NEED_MORE_INPUT:
                throw ImageCodingError.truncated(.jxl)
            case JXL_DEC_SUCCESS:
                throw ImageCodingError.corrupt(.jxl, "the file ends before frame \(index)")
            default:
                throw ImageCodingError.corrupt(.jxl, "libjxl could not decode frame \(index)")
            }
        }
    }
}
