import Foundation

/// A Windows bitmap built byte by byte with a 40-byte info header, for tests that need one
/// without Pillow (including ones no encoder would write).
public enum BMPFile {
    /// A bitmap of `width` × `height` (negative: top-down) with `bits` per pixel, `compression`,
    /// and `pixels` (palette and rows) right after the headers.
    public static func make(width: Int32, height: Int32, bits: UInt16 = 24, compression: UInt32 = 0, pixels: [UInt8]) -> Data {
        var data = Data("BM".utf8)
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        u32(UInt32(54 + pixels.count)); u32(0); u32(54)
        u32(40); u32(UInt32(bitPattern: width)); u32(UInt32(bitPattern: height)); u16(1); u16(bits)
        u32(compression); u32(0); u32(2835); u32(2835); u32(0); u32(0)
        data.append(contentsOf: pixels)
        return data
    }
}
