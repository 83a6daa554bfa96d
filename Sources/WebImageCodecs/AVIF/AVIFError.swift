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
        if result == AVIF_RESULT_TRUNCATED_DATA || endsInsideABox(file) {
            return .truncated(.avif)
        }
        let message = String(cString: avifResultToString(result))
        let detail = withUnsafeBytes(of: &diagnostics.error) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return .corrupt(.avif, detail.isEmpty ? message : "\(message) (\(detail))")
    }

    /// Whether `file` starts with an `ftyp` box header and one of its top-level boxes (or a
    /// box header) runs past the end of the bytes.
    static func endsInsideABox(_ file: UnsafeRawBufferPointer) -> Bool {
        guard file.count >= 8, readBigEndian(file, at: 4, count: 4) == 0x6674_7970 else { return false }  // "ftyp"
        var offset = 0
        while offset < file.count {
            let remaining = file.count - offset
            guard remaining >= 8 else { return true }
            var boxSize = readBigEndian(file, at: offset, count: 4)
            if boxSize == 0 { return false }  // the last box, extending to the end of the file
            if boxSize == 1 {
                guard remaining >= 16 else { return true }
                boxSize = readBigEndian(file, at: offset + 8, count: 8)
            }
            guard boxSize >= 8 else { return false }  // malformed, not cut short
            if boxSize > UInt64(remaining) { return true }
            offset += Int(boxSize)
        }
        return false
    }

    private static func readBigEndian(_ bytes: UnsafeRawBufferPointer, at offset: Int, count: Int) -> UInt64 {
        bytes[offset..<offset + count].reduce(0) { $0 << 8 | UInt64($1) }
    }
}
