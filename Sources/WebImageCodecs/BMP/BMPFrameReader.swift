import Foundation
import WebImage

/// The one frame of a bitmap: the headers are read when the reader is made, the pixels when
/// the frame is asked for (after ``AnimatedFrameReader/decodeImage(format:options:orientation:)``
/// has checked the size against the pixel limit).
final class BMPFrameReader: AnimatedFrameReader {
    private let data: Data
    private let header: BMPHeader

    /// A reader over `data`; throws ``ImageCodingError`` when its headers are not readable.
    init(data: Data) throws {
        self.data = data
        header = try data.withUnsafeBytes { try BMPHeader($0) }
    }

    var canvasSize: PixelSize { PixelSize(width: header.width, height: header.height) }
    var frameCount: Int { 1 }
    var loopCount: Int { 0 }
    func duration(at index: Int) -> TimeInterval { 0 }

    /// The pixels, top row first.
    func frame(at index: Int) throws -> PixelBuffer {
        guard index == 0 else { throw ImageCodingError.corrupt(.bmp, "no frame \(index)") }
        return try data.withUnsafeBytes { try BMPPixels(header: header, file: BMPBytes($0)).decode() }
    }
}
