/// A PNG chunk type: four ASCII letters read as one big-endian number.
struct PNGChunkType: Hashable, Sendable {
    let code: UInt32

    /// The type whose name is `name` (four ASCII letters).
    init(_ name: StaticString) {
        precondition(name.utf8CodeUnitCount == 4, "a chunk type has four letters")
        let p = name.utf8Start
        code = UInt32(p[0]) << 24 | UInt32(p[1]) << 16 | UInt32(p[2]) << 8 | UInt32(p[3])
    }

    init(code: UInt32) {
        self.code = code
    }

    /// The four bytes as they appear in a file.
    var bytes: [UInt8] { [UInt8(code >> 24), UInt8(code >> 16 & 0xFF), UInt8(code >> 8 & 0xFF), UInt8(code & 0xFF)] }

    static let IHDR = PNGChunkType("IHDR")
    static let PLTE = PNGChunkType("PLTE")
    static let tRNS = PNGChunkType("tRNS")
    static let IDAT = PNGChunkType("IDAT")
    static let IEND = PNGChunkType("IEND")
    static let eXIf = PNGChunkType("eXIf")
    static let iCCP = PNGChunkType("iCCP")
    static let pHYs = PNGChunkType("pHYs")
    static let acTL = PNGChunkType("acTL")
    static let fcTL = PNGChunkType("fcTL")
    static let fdAT = PNGChunkType("fdAT")
}

/// One chunk of a PNG file, located by byte offsets into the file.
struct PNGChunk: Sendable {
    /// The chunk's type.
    let type: PNGChunkType
    /// The offset of the chunk's length field.
    let start: Int
    /// The length of the chunk's data.
    let length: Int

    /// Where the chunk's data lies in the file.
    var data: Range<Int> { start + 8 ..< start + 8 + length }
    /// The whole chunk: length, type, data and CRC.
    var bytes: Range<Int> { start ..< start + 12 + length }
}

extension UnsafeRawBufferPointer {
    /// The big-endian 32-bit number at `offset`; the caller checked that four bytes are there.
    func bigEndianUInt32(at offset: Int) -> UInt32 {
        UInt32(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    /// The big-endian 16-bit number at `offset`; the caller checked that two bytes are there.
    func bigEndianUInt16(at offset: Int) -> UInt16 {
        UInt16(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }
}
