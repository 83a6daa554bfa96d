import Foundation

/// GIF files written block by block, for the cases no encoder makes on purpose: frames past
/// the logical screen, a second header pasted between frames, LZW minimum code sizes above 8.
///
/// Pixel data is LZW of literals only: a clear code starts the data and comes again before the
/// table would widen the codes, so every code has the first width and no string is ever reused.
struct GIFBytes {
    private(set) var bytes: [UInt8] = []

    /// The `GIF89a` header, a `width` × `height` logical screen and a global colour table of
    /// `palette` (RGB triples, padded to a power of two, at least 2 entries).
    init(width: Int, height: Int, palette: [(UInt8, UInt8, UInt8)]) {
        appendHeader(width: width, height: height, palette: palette)
    }

    /// Appends a header, screen and global colour table: the file's own first, or a second
    /// one pasted after a frame (bytes that start no block to a GIF reader).
    mutating func appendHeader(width: Int, height: Int, palette: [(UInt8, UInt8, UInt8)]) {
        var bits = 1
        while 1 << bits < palette.count { bits += 1 }
        bytes += Array("GIF89a".utf8)
        appendWord(width)
        appendWord(height)
        bytes += [0x80 | UInt8(bits - 1), 0, 0]
        for index in 0..<(1 << bits) {
            let color = index < palette.count ? palette[index] : (0, 0, 0)
            bytes += [color.0, color.1, color.2]
        }
    }

    /// A graphics control extension for the next frame: `transparentIndex`, no disposal, no delay.
    mutating func appendControl(transparentIndex: UInt8?) {
        bytes += [0x21, 0xF9, 4, transparentIndex == nil ? 0 : 1, 0, 0, transparentIndex ?? 0, 0]
    }

    /// A frame at (`left`, `top`) of `width` columns holding `indices` (rows top to bottom),
    /// LZW-coded with minimum code size `codeSize`.
    mutating func appendFrame(left: Int, top: Int, width: Int, indices: [UInt8], codeSize: Int) {
        bytes.append(0x2C)
        appendWord(left)
        appendWord(top)
        appendWord(width)
        appendWord(indices.count / width)
        bytes += [0, UInt8(codeSize)]
        let data = Self.literalLZW(indices, codeSize: codeSize)
        for start in stride(from: 0, to: data.count, by: 255) {
            let block = data[start..<min(start + 255, data.count)]
            bytes.append(UInt8(block.count))
            bytes += block
        }
        bytes.append(0)
    }

    /// The trailer.
    mutating func appendTrailer() {
        bytes.append(0x3B)
    }

    private mutating func appendWord(_ value: Int) {
        bytes += [UInt8(value & 0xFF), UInt8(value >> 8)]
    }

    /// `indices` as LZW codes of `codeSize + 1` bits, least significant bit first, ending
    /// with the end code.
    private static func literalLZW(_ indices: [UInt8], codeSize: Int) -> [UInt8] {
        let clear = 1 << codeSize, width = codeSize + 1
        var codes = [clear]
        // After a clear, each literal but the first adds a table entry; the width grows when
        // the table reaches 2 · clear entries, after clear − 1 literals: a clear comes first.
        for (n, index) in indices.enumerated() {
            if n > 0 && n % (clear - 2) == 0 { codes.append(clear) }
            codes.append(Int(index))
        }
        codes.append(clear + 1)
        var out: [UInt8] = [], bits = 0, count = 0
        for code in codes {
            bits |= code << count
            count += width
            while count >= 8 {
                out.append(UInt8(bits & 0xFF))
                bits >>= 8
                count -= 8
            }
        }
        if count > 0 { out.append(UInt8(bits & 0xFF)) }
        return out
    }
}
