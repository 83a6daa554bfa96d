import CHEIF
import WebImage

/// Turns a failed libheif call into an ``ImageCodingError`` for `format` (`.heic` or `.heif`).
///
/// libheif reports a file cut short as "end of data" only sometimes (a missing item payload is
/// as often "invalid input"), so the file's top-level boxes are walked too: when the last one
/// claims more bytes than remain, the error is ``ImageCodingError/truncated(_:)``.
enum HEIFError {
    /// The error for `error`, or nil when it reports success.
    static func error(for error: heif_error, format: ImageFormat, file: UnsafeRawBufferPointer) -> ImageCodingError? {
        guard error.code != heif_error_Ok else { return nil }
        if error.subcode == heif_suberror_End_of_data || ISOBMFF.endsInsideABox(file) {
            return .truncated(format)
        }
        let message = error.message.map { String(cString: $0) } ?? "libheif error \(error.code.rawValue)"
        switch error.code {
        case heif_error_Unsupported_feature, heif_error_Unsupported_filetype:
            return .unsupportedFeature(format, message)
        default:
            return .corrupt(format, message)
        }
    }
}
