/// The box structure of ISO-BMFF files (HEIF, AVIF): read only as far as telling a file cut
/// short from a damaged one, which the libraries report alike.
enum ISOBMFF {
    /// Whether `file` starts with an `ftyp` box header and one of its top-level boxes (or a
    /// box header) runs past the end of the bytes: a download cut short.
    static func endsInsideABox(_ file: UnsafeRawBufferPointer) -> Bool {
        guard file.count >= 8, file.bigEndianInteger(at: 4, count: 4) == 0x6674_7970 else { return false }  // "ftyp"
        var offset = 0
        while offset < file.count {
            let remaining = file.count - offset
            guard remaining >= 8 else { return true }
            var boxSize = file.bigEndianInteger(at: offset, count: 4)
            if boxSize == 0 { return false }  // the last box, extending to the end of the file
            if boxSize == 1 {
                guard remaining >= 16 else { return true }
                boxSize = file.bigEndianInteger(at: offset + 8, count: 8)
            }
            guard boxSize >= 8 else { return false }  // malformed, not cut short
            if boxSize > UInt64(remaining) { return true }
            offset += Int(boxSize)
        }
        return false
    }
}
