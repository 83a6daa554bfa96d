import CCodecShims
import Foundation
import WebImage

/// The first image of a TIFF file, opened by libtiff over a copy of its bytes when the reader
/// is made and decoded when the frame is asked for (after
/// ``AnimatedFrameReader/decodeImage(format:options:orientation:)`` has checked the size
/// against the pixel limit). Rows come as stored; ``orientation`` is the file's tag.
final class TIFFFrameReader: ColorConvertingFrameReader {
    /// The most libtiff may allocate at once (a strip or tile buffer): a file declaring larger
    /// strips is refused rather than allowed to ask for gigabytes.
    static let maxAllocation: UInt64 = 256 << 20

    let canvasSize: PixelSize
    let orientation: ImageOrientation
    var frameCount: Int { 1 }
    var loopCount: Int { 0 }
    var color: EmbeddedColorProfile

    private let bytes: UnsafeMutableRawBufferPointer
    private let file: OpaquePointer

    /// Opens `data`; throws ``ImageCodingError`` when libtiff cannot read it.
    init(data: Data, options: ImageDecodeOptions) throws {
        if data.isEmpty { throw ImageCodingError.empty }
        guard ImageFormat(detecting: data) == .tiff else { throw ImageCodingError.unsupportedFormat(ImageFormat(detecting: data)) }
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: data.count, alignment: 8)
        data.copyBytes(to: bytes)
        var message = [CChar](repeating: 0, count: 512)
        guard let file = wi_tiff_open(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count, Self.maxAllocation,
                                      &message, message.count) else {
            bytes.deallocate()
            throw ImageCodingError.corrupt(.tiff, Self.text(message))
        }
        var width: UInt32 = 0, height: UInt32 = 0, tag: UInt16 = 1
        wi_tiff_geometry(file, &width, &height, &tag)
        var length: UInt32 = 0
        let profile = wi_tiff_icc_profile(file, &length).map { [UInt8](UnsafeBufferPointer(start: $0, count: Int(length))) }
        (self.bytes, self.file) = (bytes, file)
        canvasSize = PixelSize(width: Int(width), height: Int(height))
        orientation = ImageOrientation(rawValue: UInt8(clamping: tag)) ?? .up
        color = EmbeddedColorProfile(iccDataOfRGBA: profile, management: options.colorManagement)
        guard width > 0, height > 0 else { throw ImageCodingError.corrupt(.tiff, "the image is \(width) × \(height)") }
    }

    deinit {
        wi_tiff_close(file)
        bytes.deallocate()
    }

    func duration(at index: Int) -> TimeInterval { 0 }

    /// The image as stored, colour not premultiplied.
    func decodedFrame(at index: Int) throws -> PixelBuffer {
        guard index == 0 else { throw ImageCodingError.corrupt(.tiff, "no frame \(index)") }
        var pixels = [UInt8](repeating: 0, count: canvasSize.width * canvasSize.height * 4)
        let status = pixels.withUnsafeMutableBufferPointer { wi_tiff_read_rgba(file, $0.baseAddress) }
        guard status >= 0 else { throw ImageCodingError.corrupt(.tiff, String(cString: wi_tiff_message(file))) }
        let read = PixelBuffer(width: canvasSize.width, height: canvasSize.height, bytes: pixels)
        return status == 1 ? RGBASamples.unpremultiplied(read) : read
    }

    /// The NUL-terminated text in `message`.
    private static func text(_ message: [CChar]) -> String {
        String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
