import WebImage

/// Turns the interleaved RGB or RGBA samples a decoder hands over (8 bits, or more in 16-bit
/// little-endian words) into an RGBA8 ``PixelBuffer``.
///
/// Deeper samples are reduced by rounding, `round(v × 255 / max)` with `max = 2^bits − 1`, the
/// rule the fixtures' references follow (libheif's and libavif's own 8-bit output truncates,
/// up to 2–3 levels darker). Missing alpha becomes opaque.
enum RGBASamples {
    /// The pixels of `rows`: `height` rows `stride` bytes apart, `width` pixels of `channels`
    /// (3 or 4) samples each, each sample `bitDepth` bits (8, or 9–16 in two bytes).
    static func pixels(_ rows: UnsafeRawPointer, stride: Int, width: Int, height: Int,
                       channels: Int, bitDepth: Int) -> PixelBuffer {
        precondition(channels == 3 || channels == 4, "RGB or RGBA samples")
        var bytes = [UInt8](repeating: 255, count: width * height * 4)
        let table = bitDepth > 8 ? reductionTable(bitDepth: min(bitDepth, 16)) : []
        bytes.withUnsafeMutableBufferPointer { out in
            for y in 0..<height {
                let row = rows + y * stride
                let target = y * width * 4
                if bitDepth <= 8 {
                    let samples = row.assumingMemoryBound(to: UInt8.self)
                    for x in 0..<width {
                        for c in 0..<channels { out[target + x * 4 + c] = samples[x * channels + c] }
                    }
                } else {
                    for x in 0..<width {
                        for c in 0..<channels {
                            let offset = (x * channels + c) * 2
                            let word = Int(row.load(fromByteOffset: offset, as: UInt8.self))
                                | Int(row.load(fromByteOffset: offset + 1, as: UInt8.self)) << 8
                            out[target + x * 4 + c] = table[min(word, table.count - 1)]
                        }
                    }
                }
            }
        }
        return PixelBuffer(width: width, height: height, bytes: bytes)
    }

    /// `v` of `bitDepth` bits rounded to 8: `round(v × 255 / (2^bitDepth − 1))`.
    static func eightBit(_ value: Int, bitDepth: Int) -> UInt8 {
        let maximum = (1 << bitDepth) - 1
        return UInt8((min(value, maximum) * 255 + maximum / 2) / maximum)
    }

    /// ``eightBit(_:bitDepth:)`` for every value of `bitDepth` bits, looked up per sample.
    private static func reductionTable(bitDepth: Int) -> [UInt8] {
        (0..<(1 << bitDepth)).map { eightBit($0, bitDepth: bitDepth) }
    }
}

extension RGBASamples {
    /// `pixels` with premultiplied colour divided back by alpha (rounded, at most 255); fully
    /// transparent pixels keep their colour.
    static func unpremultiplied(_ pixels: PixelBuffer) -> PixelBuffer {
        var bytes = pixels.bytes
        for i in stride(from: 0, to: bytes.count, by: 4) {
            let alpha = Int(bytes[i + 3])
            guard alpha > 0, alpha < 255 else { continue }
            for c in 0..<3 { bytes[i + c] = UInt8(min(255, (Int(bytes[i + c]) * 255 + alpha / 2) / alpha)) }
        }
        return PixelBuffer(width: pixels.width, height: pixels.height, bytes: bytes)
    }
}

extension RGBASamples {
    /// The red, green and blue samples of RGBA8 `bytes`, alpha dropped: what an encoder takes
    /// for an opaque image.
    static func rgb(_ bytes: [UInt8]) -> [UInt8] {
        var rgb = [UInt8]()
        rgb.reserveCapacity(bytes.count / 4 * 3)
        for i in stride(from: 0, to: bytes.count, by: 4) { rgb.append(contentsOf: bytes[i..<i + 3]) }
        return rgb
    }
}
