import WebImage

/// Decodes a bitmap's pixel array, described by its ``BMPHeader``, into top-down RGBA.
///
/// Uncompressed rows must all be present (a shorter file is ``ImageCodingError/truncated(_:)``);
/// run-length data that ends early leaves the rest at palette entry 0, as Pillow does.
struct BMPPixels {
    /// The headers.
    let header: BMPHeader
    /// The whole file.
    let file: BMPBytes

    /// The pixels; the caller has checked the size against its pixel limit.
    func decode() throws(ImageCodingError) -> PixelBuffer {
        switch header.compression {
        case .rle8, .rle4:
            let indexes = BMPRunLength(header: header, file: file).indexes()
            return paletted { indexes[$0 * header.width + $1] }
        case .rgb, .bitfields, .alphaBitfields:
            return try uncompressed()
        }
    }

    /// Rows of 1 to 32 bits a pixel, each padded to four bytes.
    private func uncompressed() throws(ImageCodingError) -> PixelBuffer {
        let stride = (header.width * header.bitCount + 31) / 32 * 4
        guard header.pixelOffset + stride * header.height <= file.count else { throw .truncated(.bmp) }
        let rowStart = { (row: Int) in header.pixelOffset + stride * (header.topDown ? row : header.height - 1 - row) }
        switch header.bitCount {
        case 1, 4, 8:
            let bits = header.bitCount, perByte = 8 / bits, mask = UInt8((1 << bits) - 1)
            return paletted { row, x in
                let byte = file.u8(rowStart(row) + x / perByte)
                return (byte >> UInt8(8 - bits - (x % perByte) * bits)) & mask
            }
        case 24:
            return filled { row, x in
                let offset = rowStart(row) + x * 3
                return RGBA(r: file.u8(offset + 2), g: file.u8(offset + 1), b: file.u8(offset))
            }
        default:
            let channels = header.masks.map(BMPChannel.init(mask:))
            let wide = header.bitCount == 32
            return filled { row, x in
                let offset = rowStart(row) + x * (wide ? 4 : 2)
                let value = wide ? file.u32(offset) : UInt32(file.u16(offset))
                return RGBA(r: channels[0].value(value), g: channels[1].value(value),
                            b: channels[2].value(value), a: channels[3].mask == 0 ? 255 : channels[3].value(value))
            }
        }
    }

    /// Pixels looked up in the palette by `index(row, column)`; an index past the palette is black.
    private func paletted(_ index: (Int, Int) -> UInt8) -> PixelBuffer {
        let black = RGBA(r: 0, g: 0, b: 0)
        return filled { row, x in
            let entry = Int(index(row, x))
            return entry < header.palette.count ? header.palette[entry] : black
        }
    }

    /// A buffer of the image's size with `pixel(row, column)` in each place, rows top-down.
    private func filled(_ pixel: (Int, Int) -> RGBA) -> PixelBuffer {
        var bytes = [UInt8](repeating: 0, count: header.width * header.height * 4)
        bytes.withUnsafeMutableBufferPointer { out in
            var offset = 0
            for row in 0..<header.height {
                for x in 0..<header.width {
                    let colour = pixel(row, x)
                    out[offset] = colour.r; out[offset + 1] = colour.g; out[offset + 2] = colour.b; out[offset + 3] = colour.a
                    offset += 4
                }
            }
        }
        return PixelBuffer(width: header.width, height: header.height, bytes: bytes)
    }
}
