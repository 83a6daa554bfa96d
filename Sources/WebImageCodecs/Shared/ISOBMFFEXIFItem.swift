import Foundation

/// Finds the `Exif` item of an ISO base media file (HEIC, AVIF): the item `iinf` names
/// `Exif`, its bytes where `iloc` puts them (in the file or in `idat`), less the offset to the
/// TIFF header they start with. Every size and offset is checked against the bytes, which are
/// hostile input; an item is read only up to ``largestItem`` bytes.
enum ISOBMFFEXIFItem {
    /// The most bytes an `Exif` item is read from: EXIF's own offsets are 32-bit, but a real
    /// block is tens of kilobytes.
    static let largestItem = 4 << 20

    /// The TIFF-structured block of the file's `Exif` item, or nil when it has none or its
    /// boxes do not hold together.
    static func find(in bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        guard let meta = box("meta", in: bytes, within: 0..<bytes.count), meta.count >= 4 else { return nil }
        let children = (meta.lowerBound + 4)..<meta.upperBound
        guard let iinf = box("iinf", in: bytes, within: children), let iloc = box("iloc", in: bytes, within: children),
              let item = exifItemID(bytes, iinf),
              let payload = itemBytes(item, bytes, iloc: iloc, idat: box("idat", in: bytes, within: children)),
              payload.count >= 4 else { return nil }
        let headerOffset = Int(payload[0]) << 24 | Int(payload[1]) << 16 | Int(payload[2]) << 8 | Int(payload[3])
        guard headerOffset <= payload.count - 4 else { return nil }
        return Array(payload[(4 + headerOffset)...])
    }

    /// The payload of the first box of `type` among the boxes that fill `range`, read one after
    /// another (``ISOBMFFBox``) until one does not fit.
    private static func box(_ type: String, in bytes: UnsafeRawBufferPointer, within range: Range<Int>) -> Range<Int>? {
        var offset = range.lowerBound
        while let box = ISOBMFFBox.box(at: offset, before: range.upperBound, of: bytes) {
            if box.type == type { return box.payload }
            offset = box.payload.upperBound
        }
        return nil
    }

    /// The ID of the item `iinf` gives the type `Exif`.
    private static func exifItemID(_ bytes: UnsafeRawBufferPointer, _ iinf: Range<Int>) -> Int? {
        var reader = BoxReader(bytes: bytes, range: iinf)
        guard let version = reader.integer(1), reader.skip(3), reader.integer(version == 0 ? 2 : 4) != nil else { return nil }
        while reader.remaining >= 8 {
            guard let infe = box("infe", in: bytes, within: reader.at..<iinf.upperBound) else { return nil }
            var entry = BoxReader(bytes: bytes, range: infe)
            if let entryVersion = entry.integer(1), entryVersion >= 2, entry.skip(3),
               let id = entry.integer(entryVersion == 2 ? 2 : 4), entry.skip(2), entry.remaining >= 4,
               bytes.fourCC(at: entry.at) == "Exif" {
                return id
            }
            reader.at = infe.upperBound
        }
        return nil
    }

    /// The bytes of item `id`: its extents, where `iloc` puts them, joined.
    private static func itemBytes(_ id: Int, _ bytes: UnsafeRawBufferPointer, iloc: Range<Int>, idat: Range<Int>?) -> [UInt8]? {
        var reader = BoxReader(bytes: bytes, range: iloc)
        guard let version = reader.integer(1), version <= 2, reader.skip(3), let sizes = reader.integer(2),
              let count = reader.integer(version < 2 ? 2 : 4) else { return nil }
        let offsetSize = sizes >> 12, lengthSize = sizes >> 8 & 0xF, baseSize = sizes >> 4 & 0xF
        let indexSize = version == 0 ? 0 : sizes & 0xF
        for _ in 0..<min(count, reader.remaining) {
            guard let itemID = reader.integer(version < 2 ? 2 : 4) else { return nil }
            var method = 0
            if version > 0 {
                guard let field = reader.integer(2) else { return nil }
                method = field & 0xF
            }
            guard reader.skip(2), let base = reader.integer(baseSize), let extents = reader.integer(2) else { return nil }
            var located: [(offset: Int, length: Int)] = []
            for _ in 0..<extents {
                guard reader.skip(indexSize), let offset = reader.integer(offsetSize), let length = reader.integer(lengthSize) else { return nil }
                located.append((offset, length))
            }
            guard itemID == id else { continue }
            let space: Range<Int>
            switch method {
            case 0: space = 0..<bytes.count
            case 1: guard let idat else { return nil }; space = idat
            default: return nil
            }
            var payload: [UInt8] = []
            for extent in located {
                guard base <= space.count, extent.offset <= space.count - base else { return nil }
                let start = space.lowerBound + base + extent.offset
                let length = extent.length == 0 ? space.upperBound - start : extent.length
                guard length <= space.upperBound - start, payload.count + length <= largestItem else { return nil }
                payload += bytes[start..<(start + length)]
            }
            return payload
        }
        return nil
    }

    /// Big-endian fields read from a range of bytes, never past its end.
    private struct BoxReader {
        let bytes: UnsafeRawBufferPointer
        let range: Range<Int>
        var at: Int

        init(bytes: UnsafeRawBufferPointer, range: Range<Int>) {
            self.bytes = bytes
            self.range = range
            at = range.lowerBound
        }

        var remaining: Int { range.upperBound - at }

        /// The next `size` bytes as a big-endian integer (0 for size 0); nil past the end or
        /// for a value that does not fit in 62 bits.
        mutating func integer(_ size: Int) -> Int? {
            guard size <= 8, size <= remaining else { return nil }
            let value = bytes.bigEndianInteger(at: at, count: size)
            guard value < 1 << 62 else { return nil }
            at += size
            return Int(value)
        }

        mutating func skip(_ count: Int) -> Bool {
            guard count <= remaining else { return false }
            at += count
            return true
        }
    }
}
