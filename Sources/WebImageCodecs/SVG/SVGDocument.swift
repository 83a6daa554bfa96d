import CCodecShims
import Foundation
import WebImage

/// A sanitized SVG document loaded by librsvg, which draws it with cairo (through `wi_svg.c`,
/// which opens librsvg on the first document).
///
/// The handle is made from a memory stream with `RSVG_HANDLE_FLAGS_NONE` and no base file:
/// libxml2 keeps its safety limits, and librsvg resolves no relative reference (the sanitizer
/// has already removed every absolute one and every `data:` URL). One document is used by one
/// decode on one thread.
final class SVGDocument {
    private let handle: OpaquePointer
    /// The size the document asks for, in pixels, absolute units at the dpi it was loaded with:
    /// its `width` and `height`, else its `viewBox`'s, else 300 × 150 (CSS's size of a replaced
    /// element that states none).
    let intrinsicSize: (width: Double, height: Double)

    /// Loads `data`, which ``SVGSanitizer`` rewrote for rendering, its absolute units at `dpi`.
    /// Without librsvg on the machine, ``ImageCodingError/unsupportedFeature(_:_:)``.
    init(sanitized data: Data, dpi: Double) throws(ImageCodingError) {
        guard wi_svg_available() != 0 else { throw .unsupportedFeature(.svg, "librsvg (librsvg-2.so.2) is not installed") }
        var error = wi_svg_error()
        let loaded = data.withUnsafeBytes { bytes in
            bytes.baseAddress.flatMap { wi_svg_load($0, bytes.count, dpi, &error) }
        }
        guard let loaded else {
            throw .corrupt(.svg, data.isEmpty ? "the document is empty" : Self.message(error))
        }
        handle = loaded
        var width = 0.0, height = 0.0
        wi_svg_intrinsic_size(loaded, &width, &height)
        intrinsicSize = (width, height)
    }

    deinit {
        wi_svg_free(handle)
    }

    /// The document drawn on a transparent canvas of `size`, stretched to it from the intrinsic
    /// size (the document's own `preserveAspectRatio` applies within that); colour not
    /// premultiplied.
    func render(at size: PixelSize) throws(ImageCodingError) -> PixelBuffer {
        guard let width = Int32(exactly: size.width), let height = Int32(exactly: size.height) else {
            throw .corrupt(.svg, "cairo could not make a \(size) surface")
        }
        var words = [UInt8](repeating: 0, count: size.width * size.height * 4)
        var error = wi_svg_error()
        let status = words.withUnsafeMutableBufferPointer {
            wi_svg_render(handle, intrinsicSize.width, intrinsicSize.height, width, height, $0.baseAddress, &error)
        }
        guard status == 0 else { throw .corrupt(.svg, Self.message(error)) }
        return Self.straightRGBA(words, size: size)
    }

    /// The one line `error` holds.
    private static func message(_ error: wi_svg_error) -> String {
        withUnsafeBytes(of: error.message) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// cairo's premultiplied native-endian ARGB words (`words`, rows of `size.width`) as RGBA
    /// bytes, colour divided by alpha.
    private static func straightRGBA(_ words: [UInt8], size: PixelSize) -> PixelBuffer {
        var bytes = [UInt8](repeating: 0, count: size.width * size.height * 4)
        words.withUnsafeBytes { argb in bytes.withUnsafeMutableBufferPointer { out in
            for y in 0..<size.height {
                for x in 0..<size.width {
                    let word = argb.loadUnaligned(fromByteOffset: (y * size.width + x) * 4, as: UInt32.self)
                    let alpha = Int(word >> 24)
                    guard alpha > 0 else { continue }
                    let target = (y * size.width + x) * 4
                    func straight(_ shift: UInt32) -> UInt8 {
                        let value = Int((word >> shift) & 0xFF)
                        return UInt8(min(255, alpha == 255 ? value : (value * 255 + alpha / 2) / alpha))
                    }
                    out[target] = straight(16)
                    out[target + 1] = straight(8)
                    out[target + 2] = straight(0)
                    out[target + 3] = UInt8(alpha)
                }
            }
        } }
        return PixelBuffer(width: size.width, height: size.height, bytes: bytes)
    }
}
