import Foundation

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

    /// The whole block, its `Exif\0\0` header dropped: every offset counts from its start.
    private(set) var bytes: [UInt8]
    private let littleEndian: Bool
    /// The entries, in the order the block lists them.
    private(set) var entries: [Tag] = []
    /// Where, in the block, this directory's pointer to the next one lies (IFD0's points to
    /// IFD1, the thumbnail's); nil when the directory is cut short before it.
    private(set) var nextPointerOffset: Int?

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
        guard let directory = u32(4) else { return nil }
        self.read(at: directory)
    }

    /// The directory at `offset` of the same block (the EXIF and GPS directories IFD0 points to),
    /// or nil when the offset lies outside it.
    func directory(at offset: Int) -> TIFFDirectory? {
        guard offset >= 8, offset < bytes.count else { return nil }
        var other = self
        other.entries = []
        other.nextPointerOffset = nil
        other.read(at: offset)
        return other
    }

    /// Reads the entries of the directory at `directory`, as many as lie within the block.
    private mutating func read(at directory: Int) {
        guard let count = u16(directory) else { return }
        let next = directory + 2 + count * 12
        nextPointerOffset = next + 4 <= bytes.count ? next : nil
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

    /// Writes `value` as the unsigned 16-bit (`width` 2) or 32-bit (`width` 4) number at
    /// `offset`, in the block's byte order; nothing when it would not lie within the block.
    mutating func write(_ value: Int, width: Int, at offset: Int) {
        guard offset >= 0, offset + width <= bytes.count else { return }
        for index in 0..<width {
            let shift = 8 * (littleEndian ? index : width - 1 - index)
            bytes[offset + index] = UInt8(truncatingIfNeeded: value >> shift)
        }
    }

    /// Sets the `count` bytes at `offset` that lie within the block to zero.
    mutating func zero(_ count: Int, at offset: Int) {
        let start = max(0, offset)
        guard start < bytes.count, count > 0 else { return }
        let end = count >= bytes.count - start ? bytes.count : start + count
        bytes.replaceSubrange(start..<end, with: repeatElement(0, count: end - start))
    }

    /// The value bytes of `entry` when it is ASCII text (type 2) lying within the block.
    func ascii(_ entry: Tag) -> [UInt8]? {
        guard entry.type == 2, entry.count > 0, entry.valueOffset >= 0, entry.count <= bytes.count - entry.valueOffset else { return nil }
        return Array(bytes[entry.valueOffset..<(entry.valueOffset + entry.count)])
    }
}

extension TIFFDirectory {
    /// The values of `entry` as text: ASCII as written (up to its first NUL), integers and
    /// rationals (`n/d`) separated by `, `, undefined bytes as text when printable ASCII, else
    /// their count; nil when they lie outside the block. At most 64 values are spelled.
    func text(_ entry: Tag) -> String? {
        if entry.type == 2 {
            guard let bytes = ascii(entry) else { return nil }
            return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        }
        let count = min(entry.count, 64)
        var values: [String] = []
        for index in 0..<count {
            let value: String?
            switch entry.type {
            case 1, 7: value = byte(entry.valueOffset + index).map(String.init)
            case 6: value = byte(entry.valueOffset + index).map { String(Int8(bitPattern: UInt8($0))) }
            case 3: value = u16(entry.valueOffset + index * 2).map(String.init)
            case 8: value = u16(entry.valueOffset + index * 2).map { String(Int16(truncatingIfNeeded: $0)) }
            case 4: value = u32(entry.valueOffset + index * 4).map(String.init)
            case 9: value = u32(entry.valueOffset + index * 4).map { String(Int32(truncatingIfNeeded: $0)) }
            case 5, 10:
                let at = entry.valueOffset + index * 8
                guard let numerator = u32(at), let denominator = u32(at + 4) else { return nil }
                value = entry.type == 5 ? "\(numerator)/\(denominator)"
                    : "\(Int32(truncatingIfNeeded: numerator))/\(Int32(truncatingIfNeeded: denominator))"
            default: value = nil
            }
            guard let value else { return nil }
            values.append(value)
        }
        if entry.type == 7 {
            let bytes = values.compactMap { UInt8($0) }
            if !bytes.isEmpty, bytes.allSatisfy({ (0x20...0x7E).contains($0) || $0 == 0 }) {
                return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            return "\(entry.count) bytes"
        }
        return values.joined(separator: ", ") + (entry.count > count ? ", …" : "")
    }

    /// The byte at `offset`, when it lies within the block.
    private func byte(_ offset: Int) -> Int? {
        offset >= 0 && offset < bytes.count ? Int(bytes[offset]) : nil
    }
}
