/// EXIF blocks written byte by byte for tests of what is read out of them.
public enum EXIFSamples {
    /// A big-endian EXIF block as thumbor's `thumbor-exif.png` has one, plus a Make and an
    /// Orientation that are not copyright: each entry ASCII text but the orientation (SHORT 6).
    public static var copyrightSource: [UInt8] { copyrightSource(orientation: 6) }

    /// The same block with `orientation` as its orientation's value (0, as in thumbor's
    /// `broken-exif-tag.jpg`, is none of EXIF's eight).
    public static func copyrightSource(orientation: Int) -> [UInt8] {
        let texts: [(Int, String)] = [(0x010F, "Acme"), (0x0132, "2022:10:24 18:37:35"), (0x013B, "thumbor"),
                                      (0x8298, "github.com/thumbor")]
        func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func be32(_ v: Int) -> [UInt8] { be16(v >> 16) + be16(v & 0xFFFF) }
        let count = texts.count + 1
        var valueOffset = 8 + 2 + count * 12 + 4
        var entries: [UInt8] = [], values: [UInt8] = []
        for (tag, text) in texts.prefix(1) + [(0x0112, "")] + texts.dropFirst() {
            if tag == 0x0112 {
                entries += be16(tag) + be16(3) + be32(1) + be16(orientation) + be16(0)
                continue
            }
            let bytes = Array(text.utf8) + [0]
            entries += be16(tag) + be16(2) + be32(bytes.count) + be32(valueOffset)
            values += bytes
            valueOffset += bytes.count
        }
        return Array("MM".utf8) + [0, 42] + be32(8) + be16(count) + entries + be32(0) + values
    }
}
