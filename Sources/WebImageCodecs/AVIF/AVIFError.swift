import CAVIF
import WebImage

/// Turns a failed libavif call into an ``ImageCodingError``.
///
/// libavif reports a file cut short inside a box as "BMFF parsing failed" as often as "Truncated
/// data", so the file's top-level boxes are walked as well: when the last one claims more bytes
/// than remain, the download was cut short and the error is ``ImageCodingError/truncated(_:)``.
enum AVIFError {
    /// The error for `result`: truncated, or corrupt with libavif's message and diagnostics.
    static func error(for result: avifResult, diagnostics: inout avifDiagnostics,
                      file: UnsafeRawBufferPointer) -> ImageCodingError {
        if result == AVIF_RESULT_TRUNCATED_DATA || ISOBMFF.endsInsideABox(file) {
            return .truncated(.avif)
        }
        let message = String(cString: avifResultToString(result))
        let detail = withUnsafeBytes(of: &diagnostics.error) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return .corrupt(.avif, detail.isEmpty ? message : "\(message) (\(detail))")
    }
}
