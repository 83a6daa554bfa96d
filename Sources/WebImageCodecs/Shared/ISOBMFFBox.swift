import WebImage

/// One box of an ISO-BMFF file (HEIF, AVIF, MP4): its four-character type and where its
/// payload lies in the file's bytes.
struct ISOBMFFBox: Sendable {
    /// The type, such as `moov` (bytes outside ASCII read as Latin-1).
    let type: String
    /// The payload: the bytes after the box header, inside the file.
    let payload: Range<Int>

    /// The box whose header is at `offset`, when it lies wholly before `end`; nil when its
    /// header or payload runs past `end` or it states a size smaller than its header.
    static func box(at offset: Int, before end: Int, of bytes: UnsafeRawBufferPointer) -> ISOBMFFBox? {
        guard offset >= 0, end <= bytes.count, end - offset >= 8 else { return nil }
        var length = bytes.bigEndianInteger(at: offset, count: 4), header = 8
        if length == 1 {
            guard end - offset >= 16 else { return nil }
            length = bytes.bigEndianInteger(at: offset + 8, count: 8)
            header = 16
        } else if length == 0 {
            length = UInt64(end - offset)
        }
        guard length >= UInt64(header), length <= UInt64(end - offset) else { return nil }
        return ISOBMFFBox(type: bytes.fourCC(at: offset + 4), payload: offset + header..<offset + Int(length))
    }

    /// The boxes that lie one after another in `range` of `bytes`; throws when one does not
    /// fit: the caller reads structure it needs whole.
    static func children(in range: Range<Int>, of bytes: UnsafeRawBufferPointer,
                         format: ImageFormat) throws(ImageCodingError) -> [ISOBMFFBox] {
        var boxes: [ISOBMFFBox] = []
        var offset = range.lowerBound
        while offset < range.upperBound {
            guard let box = box(at: offset, before: range.upperBound, of: bytes) else {
                throw .corrupt(format, "a box does not fit in the box around it")
            }
            boxes.append(box)
            offset = box.payload.upperBound
        }
        return boxes
    }

    /// The boxes inside this one, when its payload is made of boxes after `skipping` bytes
    /// (a full box's version and flags, say).
    func children(of bytes: UnsafeRawBufferPointer, skipping: Int = 0,
                  format: ImageFormat) throws(ImageCodingError) -> [ISOBMFFBox] {
        guard payload.count >= skipping else { throw .corrupt(format, "a \(type) box is too short") }
        return try Self.children(in: payload.lowerBound + skipping..<payload.upperBound, of: bytes, format: format)
    }
}

extension Array where Element == ISOBMFFBox {
    /// The first box of `type`, if any.
    func first(_ type: String) -> ISOBMFFBox? {
        first { $0.type == type }
    }
}

extension UnsafeRawBufferPointer {
    /// The four bytes at `offset` as a four-character code (bytes outside ASCII as Latin-1).
    func fourCC(at offset: Int) -> String {
        String(self[offset..<offset + 4].map { Character(Unicode.Scalar($0)) })
    }

    /// The `count`-byte big-endian unsigned integer at `offset` (`count` ≤ 8, in bounds).
    func bigEndianInteger(at offset: Int, count: Int) -> UInt64 {
        self[offset..<offset + count].reduce(0) { $0 << 8 | UInt64($1) }
    }
}
