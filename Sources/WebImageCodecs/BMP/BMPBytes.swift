/// Little-endian reads from a bitmap's bytes; a read past the end gives 0, so a caller that
/// checked the length first can never trap on a short file.
struct BMPBytes {
    /// The file.
    let bytes: UnsafeRawBufferPointer

    /// A reader over `bytes`.
    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// The file's length.
    var count: Int { bytes.count }

    /// The byte at `offset`.
    func u8(_ offset: Int) -> UInt8 {
        offset >= 0 && offset < bytes.count ? bytes[offset] : 0
    }

    /// The 16-bit value at `offset`.
    func u16(_ offset: Int) -> UInt16 {
        UInt16(u8(offset)) | UInt16(u8(offset + 1)) << 8
    }

    /// The 32-bit value at `offset`.
    func u32(_ offset: Int) -> UInt32 {
        UInt32(u16(offset)) | UInt32(u16(offset + 2)) << 16
    }
}
