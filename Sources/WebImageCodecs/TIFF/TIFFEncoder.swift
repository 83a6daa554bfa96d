import CCodecShims
import Foundation
import WebImage

/// Writes an image's first frame as a TIFF: 8-bit RGB, or RGBA with unassociated alpha when a
/// pixel is transparent, Deflate-compressed with horizontal prediction (lossless, about PNG's
/// size), in sRGB (pixels in another profile's space are converted first, as the JPEG XL
/// encoder does).
struct TIFFEncoder {
    /// `source`'s first frame as TIFF bytes.
    func encode(_ source: Image) throws -> Data {
        let image = source.inSRGB()
        let pixels = image.pixels
        let alpha = pixels.hasTransparency
        let samples = alpha ? pixels.bytes : RGBASamples.rgb(pixels.bytes)
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 512)
        let status = samples.withUnsafeBufferPointer { buffer in
            wi_tiff_write(buffer.baseAddress, UInt32(pixels.width), UInt32(pixels.height), alpha ? 4 : 3, nil, 0,
                          &output, &size, &message, message.count)
        }
        guard status == 0, let output else {
            throw ImageCodingError.encodingFailed(.tiff, String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) },
                                                                as: UTF8.self))
        }
        defer { free(output) }
        return Data(bytes: output, count: size)
    }
}
