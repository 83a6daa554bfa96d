extension EXIF {
    /// The TIFF-structured EXIF block `bytes` made true of a result drawn upright, `width` × `height` pixels, for
    /// a result that keeps its source's metadata (imgproxy's `IMGPROXY_STRIP_METADATA=false`,
    /// thumbor's `PRESERVE_EXIF_INFO`): the Orientation is 1, PixelXDimension and
    /// PixelYDimension are `width` and `height`, and the thumbnail directory (IFD1) is unlinked and its bytes
    /// and image zeroed, since it shows the source before any crop. Every other byte is kept
    /// where it was, so offsets inside maker notes stay right. Nil when `bytes` is no such block.
    public static func upright(fromTIFF bytes: some Collection<UInt8>, width: Int, height: Int) -> [UInt8]? {
        guard var root = TIFFDirectory(bytes) else { return nil }
        for entry in root.entries where entry.tag == 0x0112 && entry.count == 1 {
            root.write(1, width: entry.type == 4 ? 4 : 2, at: entry.valueOffset)
        }
        if let pointer = root.entries.first(where: { $0.tag == 0x8769 }), let offset = root.u32(pointer.valueOffset),
           let exif = root.directory(at: offset) {
            for entry in exif.entries where entry.count == 1 && (entry.type == 3 || entry.type == 4) {
                switch entry.tag {
                case 0xA002: root.write(width, width: entry.type == 4 ? 4 : 2, at: entry.valueOffset)
                case 0xA003: root.write(height, width: entry.type == 4 ? 4 : 2, at: entry.valueOffset)
                default: break
                }
            }
        }
        if let next = root.nextPointerOffset, let offset = root.u32(next), offset != 0 {
            root.write(0, width: 4, at: next)
            if let thumbnail = root.directory(at: offset) {
                root.zeroImage(of: thumbnail)
                root.zero(2 + thumbnail.entries.count * 12 + 4, at: offset)
            }
        }
        return root.bytes
    }
}

private extension TIFFDirectory {
    /// Zeroes the image `directory` points to: a JPEG thumbnail's bytes
    /// (JPEGInterchangeFormat and its length) or an uncompressed one's single strip.
    mutating func zeroImage(of directory: TIFFDirectory) {
        for (start, length) in [(0x0201, 0x0202), (0x0111, 0x0117)] {
            guard let startEntry = directory.entries.first(where: { $0.tag == start && $0.count == 1 }),
                  let lengthEntry = directory.entries.first(where: { $0.tag == length && $0.count == 1 }),
                  let offset = value(of: startEntry), let count = value(of: lengthEntry) else { continue }
            zero(count, at: offset)
        }
    }

    /// The one SHORT or LONG value of `entry`.
    func value(of entry: Tag) -> Int? {
        entry.type == 3 ? u16(entry.valueOffset) : entry.type == 4 ? u32(entry.valueOffset) : nil
    }
}
