/// Reads the one EXIF fact decoding needs: the orientation tag.
public enum EXIF {
    /// The orientation in a TIFF-structured EXIF block (`II*\0…` or `MM\0*…`), as found after
    /// JPEG's `Exif\0\0` marker, in WebP's `EXIF` chunk and in PNG's `eXIf` chunk.
    /// Returns `.up` when the block is absent, damaged or has no orientation tag.
    public static func orientation(fromTIFF bytes: some Collection<UInt8>) -> ImageOrientation {
        var b = Array(bytes)
        // Some writers keep JPEG's "Exif\0\0" header in WebP and PNG chunks too.
        if b.starts(with: Array("Exif\0\0".utf8)) { b.removeFirst(6) }
        guard b.count >= 8 else { return .up }
        let little: Bool
        switch (b[0], b[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return .up
        }
        func u16(_ o: Int) -> Int? {
            guard o >= 0, o + 2 <= b.count else { return nil }
            return little ? Int(b[o]) | Int(b[o + 1]) << 8 : Int(b[o]) << 8 | Int(b[o + 1])
        }
        func u32(_ o: Int) -> Int? {
            guard let lo = u16(little ? o : o + 2), let hi = u16(little ? o + 2 : o) else { return nil }
            return hi << 16 | lo
        }
        guard let ifd = u32(4), let count = u16(ifd) else { return .up }
        for i in 0..<count {
            let entry = ifd + 2 + i * 12
            guard let tag = u16(entry) else { return .up }
            if tag == 0x0112, let value = u16(entry + 8) {
                return ImageOrientation(exifValue: value)
            }
        }
        return .up
    }
}
