/// The first directory (IFD0) of a TIFF-structured block, as EXIF blocks are (`II*\0…` or
/// `MM\0*…`, JPEG's `Exif\0\0` header dropped), read with every offset checked against the block.
struct TIFFDirectory {
    /// One entry: its tag, its TIFF type and where its value's bytes start in the block.
    struct Tag {
        let tag: Int
        let type: Int
        let count: Int
        let valueOffset: Int
    }

    private let bytes: [UInt8]
    private let littleEndian: Bool
    /// The entries, in the order the block lists them.
    private(set) var entries: [Tag] = []

    /// The directory `block` starts with, or nil when it is no TIFF structure or is cut short.
    init?(_ block: some Collection<UInt8>) {
        var bytes = Array(block)
        // Some writers keep JPEG's "Exif\0\0" header in WebP and PNG chunks too.
        if bytes.starts(with: Array("Exif\0\0".utf8)) { bytes.removeFirst(6) }
        guard bytes.count >= 8 else { return nil }
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        self.bytes = bytes
        guard let directory = u32(4), let count = u16(directory) else { return nil }
        var entries: [Tag] = []
        for index in 0..<count {
            let at = directory + 2 + index * 12
            guard let tag = u16(at), let type = u16(at + 2), let valueCount = u32(at + 4) else { break }
            let size = Self.byteSize(ofType: type) * valueCount
            let offset = size <= 4 ? at + 8 : u32(at + 8)
            if let offset { entries.append(Tag(tag: tag, type: type, count: valueCount, valueOffset: offset)) }
        }
        self.entries = entries
    }

    /// The bytes of one value of TIFF `type` (1 for the types EXIF's text and bytes use).
    private static func byteSize(ofType type: Int) -> Int {
        switch type {
        case 3, 8: 2
        case 4, 9, 11: 4
        case 5, 10, 12: 8
        default: 1
        }
    }

    /// The unsigned 16-bit value at `offset`, in the block's byte order.
    func u16(_ offset: Int) -> Int? {
        guard offset >= 0, offset + 2 <= bytes.count else { return nil }
        return littleEndian ? Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 : Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
    }

    /// The unsigned 32-bit value at `offset`, in the block's byte order.
    func u32(_ offset: Int) -> Int? {
        guard let low = u16(littleEndian ? offset : offset + 2), let high = u16(littleEndian ? offset + 2 : offset) else { return nil }
        return high << 16 | low
    }

    /// The value bytes of `entry` when it is ASCII text (type 2) lying within the block.
    func ascii(_ entry: Tag) -> [UInt8]? {
        guard entry.type == 2, entry.count > 0, entry.valueOffset >= 0, entry.count <= bytes.count - entry.valueOffset else { return nil }
        return Array(bytes[entry.valueOffset..<(entry.valueOffset + entry.count)])
    }
}
