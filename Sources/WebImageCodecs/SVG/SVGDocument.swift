import CRSVG
import Foundation
import WebImage

/// A sanitized SVG document loaded by librsvg, which draws it with cairo.
///
/// The handle is made from a memory stream with `RSVG_HANDLE_FLAGS_NONE` and no base file:
/// libxml2 keeps its safety limits, and librsvg resolves no relative reference (the sanitizer
/// has already removed every absolute one and every `data:` URL). One document is used by one
/// decode on one thread.
final class SVGDocument {
    private let handle: UnsafeMutablePointer<RsvgHandle>
    /// The size the document asks for, in CSS pixels at 96 dpi: its `width` and `height`, else
    /// its `viewBox`'s, else 300 × 150 (CSS's size of a replaced element that states none).
    let intrinsicSize: (width: Double, height: Double)

    /// Loads `data`, which ``SVGSanitizer`` rewrote for rendering.
    init(sanitized data: Data) throws(ImageCodingError) {
        var error: UnsafeMutablePointer<GError>?
        let loaded: UnsafeMutablePointer<RsvgHandle>? = data.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return nil }
            let stream = g_memory_input_stream_new_from_data(base, gssize(bytes.count), nil)
            defer { g_object_unref(stream) }
            return rsvg_handle_new_from_stream_sync(stream, nil, RSVG_HANDLE_FLAGS_NONE, nil, &error)
        }
        guard let loaded else {
            throw .corrupt(.svg, Self.message(taking: error) ?? "librsvg could not read the document")
        }
        handle = loaded
        rsvg_handle_set_dpi(handle, 96)
        intrinsicSize = Self.intrinsicSize(of: loaded)
    }

    deinit {
        g_object_unref(handle)
    }

    /// The document drawn on a transparent canvas of `size`, stretched to it from the intrinsic
    /// size (the document's own `preserveAspectRatio` applies within that); colour not
    /// premultiplied.
    func render(at size: PixelSize) throws(ImageCodingError) -> PixelBuffer {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(size.width), Int32(size.height)) else {
            throw .corrupt(.svg, "cairo could not make a \(size) surface")
        }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            throw .corrupt(.svg, "cairo could not make a \(size) surface")
        }
        let context = cairo_create(surface)
        defer { cairo_destroy(context) }
        cairo_scale(context, Double(size.width) / intrinsicSize.width, Double(size.height) / intrinsicSize.height)
        var viewport = RsvgRectangle(x: 0, y: 0, width: intrinsicSize.width, height: intrinsicSize.height)
        var error: UnsafeMutablePointer<GError>?
        guard rsvg_handle_render_document(handle, context, &viewport, &error) != 0 else {
            throw .corrupt(.svg, Self.message(taking: error) ?? "librsvg could not draw the document")
        }
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface) else {
            throw .corrupt(.svg, "cairo kept no pixels")
        }
        return Self.straightRGBA(data, stride: Int(cairo_image_surface_get_stride(surface)), size: size)
    }

    /// cairo's premultiplied native-endian ARGB words as RGBA bytes, colour divided by alpha.
    private static func straightRGBA(_ data: UnsafeMutablePointer<UInt8>, stride: Int, size: PixelSize) -> PixelBuffer {
        var bytes = [UInt8](repeating: 0, count: size.width * size.height * 4)
        bytes.withUnsafeMutableBufferPointer { out in
            for y in 0..<size.height {
                let row = UnsafeRawPointer(data + y * stride)
                for x in 0..<size.width {
                    let word = row.load(fromByteOffset: x * 4, as: UInt32.self)
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
        }
        return PixelBuffer(width: size.width, height: size.height, bytes: bytes)
    }

    private static func intrinsicSize(of handle: UnsafeMutablePointer<RsvgHandle>) -> (width: Double, height: Double) {
        var width = 0.0, height = 0.0
        if rsvg_handle_get_intrinsic_size_in_pixels(handle, &width, &height) != 0 {
            return (width, height)
        }
        var hasViewBox: gboolean = 0
        var viewBox = RsvgRectangle()
        rsvg_handle_get_intrinsic_dimensions(handle, nil, nil, nil, nil, &hasViewBox, &viewBox)
        if hasViewBox != 0 { return (viewBox.width, viewBox.height) }
        return (300, 150)
    }

    /// The message of `error`, which is freed.
    private static func message(taking error: UnsafeMutablePointer<GError>?) -> String? {
        guard let error else { return nil }
        defer { g_error_free(error) }
        return error.pointee.message.map { String(cString: $0) }
    }
}
