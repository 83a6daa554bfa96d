/// Expands RLE8 and RLE4 pixel data into one palette index per pixel, rows top-down.
///
/// Runs past a row's end are clipped, a delta or end of line past the last row ends the
/// image, and pixels no code reaches keep index 0. Each code consumes input, so the work is
/// bounded by the file's length and the image's size.
struct BMPRunLength {
    /// The headers (bottom-up, 4 or 8 bits).
    let header: BMPHeader
    /// The whole file.
    let file: BMPBytes

    /// `width × height` indexes.
    func indexes() -> [UInt8] {
        let width = header.width, height = header.height, four = header.compression == .rle4
        var out = [UInt8](repeating: 0, count: width * height)
        var offset = header.pixelOffset, x = 0, y = 0
        func put(_ index: UInt8) {
            if x < width { out[(height - 1 - y) * width + x] = index }
            x += 1
        }
        while offset + 1 < file.count, y < height {
            let count = Int(file.u8(offset)), value = file.u8(offset + 1)
            offset += 2
            if count > 0 {
                for i in 0..<count { put(four ? (i % 2 == 0 ? value >> 4 : value & 0x0F) : value) }
                continue
            }
            switch value {
            case 0:
                x = 0; y += 1
            case 1:
                return out
            case 2:
                x += Int(file.u8(offset)); y += Int(file.u8(offset + 1))
                offset += 2
            default:
                let pixels = Int(value)
                let bytes = four ? (pixels + 1) / 2 : pixels
                for i in 0..<pixels {
                    let byte = file.u8(offset + (four ? i / 2 : i))
                    put(four ? (i % 2 == 0 ? byte >> 4 : byte & 0x0F) : byte)
                }
                offset += bytes + bytes % 2
            }
        }
        return out
    }
}
