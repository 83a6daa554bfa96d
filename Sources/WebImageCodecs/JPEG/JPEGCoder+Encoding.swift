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

    /// Encodes the first frame as a baseline JPEG (progressive with
    /// ``ImageEncodeOptions/progressive``) at ``ImageEncodeOptions/quality`` (0...1 maps
    /// to libjpeg's 1...100), 4:2:0, without EXIF (the pixels are already upright) unless
    /// ``ImageEncodeOptions/exif`` gives a block, written as an `Exif` APP1 segment. JPEG has no
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
                               Self.libjpegQuality(options.quality), options.progressive ? 1 : 0,
                               options.chromaSubsampling == .full ? 1 : 0, Int32(min(max(options.dotsPerInch ?? 0, 0), 65535)), icc.isEmpty ? nil : icc.baseAddress?.assumingMemoryBound(to: UInt8.self),
                               icc.count, &output, &length, &message)
            }
        }
        guard status == WI_JPEG_OK, let output else {
            throw ImageCodingError.encodingFailed(.jpeg, String(decoding: message.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self))
        }
        let jpeg = Data(bytesNoCopy: output, count: length, deallocator: .free)
        return options.exif.map { Self.inserting(exif: $0, into: jpeg) } ?? jpeg
    }

    /// `jpeg` (as libjpeg writes it: SOI, then JFIF's APP0) with `exif` as an `Exif\0\0` APP1
    /// segment after the APP0 (after SOI without one); as it is when the block is empty or over
    /// one segment's 65 533 bytes.
    static func inserting(exif: [UInt8], into jpeg: Data) -> Data {
        let payload = Array("Exif\0\0".utf8) + exif
        guard !exif.isEmpty, payload.count + 2 <= 0xFFFF, jpeg.count >= 4, jpeg.starts(with: [0xFF, 0xD8]) else { return jpeg }
        var at = jpeg.startIndex + 2
        if jpeg[at] == 0xFF, jpeg[at + 1] == 0xE0, jpeg.count >= 6 {
            at += 2 + (Int(jpeg[at + 2]) << 8 | Int(jpeg[at + 3]))
        }
        guard at <= jpeg.endIndex else { return jpeg }
        let length = payload.count + 2
        var out = Data(jpeg[..<at])
        out.append(contentsOf: [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload)
        out.append(jpeg[at...])
        return out
    }

    /// libjpeg's quality (1...100) for a quality of 0...1; out-of-range values are clamped and
    /// NaN means the default 0.9.
    static func libjpegQuality(_ quality: Double) -> Int32 {
        let clamped = quality.isNaN ? 0.9 : min(1, max(0, quality))
        return max(1, Int32((clamped * 100).rounded()))
    }
}
