/// Reads the EXIF facts decoding and serving need: the orientation, and the copyright tags a
/// stripped result keeps.
public enum EXIF {
    /// The tags ``copyright(fromTIFF:)`` keeps: Artist, Copyright and DateTime (thumbor's
    /// `PRESERVE_EXIF_COPYRIGHT_INFO` keeps these three; imgproxy's `keep_copyright` the first two).
    public static let copyrightTags = [0x013B, 0x8298, 0x0132]

    /// The orientation in a TIFF-structured EXIF block (`II*\0…` or `MM\0*…`), as found after
    /// JPEG's `Exif\0\0` marker, in WebP's `EXIF` chunk and in PNG's `eXIf` chunk.
    /// Returns `.up` when the block is absent, damaged or has no orientation tag.
    public static func orientation(fromTIFF bytes: some Collection<UInt8>) -> ImageOrientation {
        guard let directory = TIFFDirectory(bytes),
              let entry = directory.entries.first(where: { $0.tag == 0x0112 }),
              let value = directory.u16(entry.valueOffset) else { return .up }
        return ImageOrientation(exifValue: value)
    }

    /// A new little-endian EXIF block holding only the ``copyrightTags`` (as ASCII text) of the
    /// TIFF-structured block `bytes`, or nil when it has none of them (or is no such block).
    public static func copyright(fromTIFF bytes: some Collection<UInt8>) -> [UInt8]? {
        guard let directory = TIFFDirectory(bytes) else { return nil }
        var kept: [(tag: Int, text: [UInt8])] = []
        for tag in copyrightTags.sorted() {
            guard let entry = directory.entries.first(where: { $0.tag == tag }), var text = directory.ascii(entry),
                  text.contains(where: { $0 != 0 }) else { continue }
            if text.last != 0 { text.append(0) }
            kept.append((tag, text))
        }
        guard !kept.isEmpty else { return nil }
        var block: [UInt8] = Array("II".utf8) + [42, 0, 8, 0, 0, 0]
        func append16(_ value: Int) { block += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func append32(_ value: Int) { append16(value & 0xFFFF); append16(value >> 16 & 0xFFFF) }
        append16(kept.count)
        var valueOffset = 8 + 2 + kept.count * 12 + 4
        var values: [UInt8] = []
        for (tag, text) in kept {
            append16(tag)
            append16(2)
            append32(text.count)
            if text.count <= 4 {
                block += text + [UInt8](repeating: 0, count: 4 - text.count)
            } else {
                append32(valueOffset)
                values += text
                valueOffset += text.count
            }
        }
        append32(0)
        return block + values
    }
}
