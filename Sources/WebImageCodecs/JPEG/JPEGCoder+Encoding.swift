import CCodecShims
import Foundation
import WebImage

extension JPEGCoder {
    /// The largest side libjpeg writes.
    static let maxEncodedSide = 65_500

    /// JPEG only.
    public func canEncode(_ format: ImageFormat) -> Bool {
        format == .jpeg
    }

    /// Encodes the first frame as a baseline JPEG at ``ImageEncodeOptions/quality`` (0...1 maps
    /// to libjpeg's 1...100), 4:2:0, without EXIF (the pixels are already upright). JPEG has no
    /// alpha: translucent pixels are composited over white, as a browser shows them on a page.
    /// An RGB ``Image/colorProfile`` is embedded as `ICC_PROFILE` markers; sRGB pixels get none.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        guard format == .jpeg else { throw ImageCodingError.noEncoder(format) }
        let (written, profile) = image.withEmbeddableProfile()
        let pixels = written.pixels
        guard pixels.width > 0, pixels.height > 0 else {
            throw ImageCodingError.encodingFailed(.jpeg, "the image has no pixels")
        }
        guard pixels.width <= Self.maxEncodedSide, pixels.height <= Self.maxEncodedSide else {
            throw ImageCodingError.encodingFailed(.jpeg, "JPEG holds at most \(Self.maxEncodedSide) pixels a side, not \(pixels.width)x\(pixels.height)")
        }
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        var message = [CChar](repeating: 0, count: Int(WI_JPEG_MESSAGE_CAPACITY))
        let status = pixels.bytes.withUnsafeBufferPointer { rgba in
            (profile?.data ?? Data()).withUnsafeBytes { icc in
                wi_jpeg_encode(rgba.baseAddress, Int32(pixels.width), Int32(pixels.height),
                               Self.libjpegQuality(options.quality), icc.isEmpty ? nil : icc.baseAddress?.assumingMemoryBound(to: UInt8.self),
                               icc.count, &output, &length, &message)
            }
        }
        guard status == WI_JPEG_OK, let output else {
            throw ImageCodingError.encodingFailed(.jpeg, String(decoding: message.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self))
        }
        return Data(bytesNoCopy: output, count: length, deallocator: .free)
    }

    /// libjpeg's quality (1...100) for a quality of 0...1; out-of-range values are clamped and
    /// NaN means the default 0.9.
    static func libjpegQuality(_ quality: Double) -> Int32 {
        let clamped = quality.isNaN ? 0.9 : min(1, max(0, quality))
        return max(1, Int32((clamped * 100).rounded()))
    }
}
