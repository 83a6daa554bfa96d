/// Filters RGBA8 pixels with a horizontal then a vertical ``FilterTable``, on premultiplied
/// Float colour so a transparent pixel's colour never bleeds into its neighbours.
///
/// The horizontal pass reads the source a row at a time (premultiplying it into one scratch
/// row) and writes a Float image as wide as the output and as tall as the source; the vertical
/// pass accumulates its rows into one output row and un-premultiplies it to RGBA8. Each pixel
/// is a `SIMD4<Float>`; nothing is allocated per pixel or per row.
enum SeparableConvolution {
    /// `pixels` filtered by `horizontal` (whose input is the width) and `vertical` (the height).
    static func apply(_ pixels: PixelBuffer, horizontal: FilterTable, vertical: FilterTable) -> PixelBuffer {
        precondition(horizontal.inputSize == pixels.width && vertical.inputSize == pixels.height,
                     "filter tables must match the pixels")
        let inWidth = pixels.width, inHeight = pixels.height
        let outWidth = horizontal.outputSize, outHeight = vertical.outputSize
        let intermediate = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: outWidth * inHeight)
        defer { intermediate.deallocate() }
        let row = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: inWidth)
        defer { row.deallocate() }
        pixels.bytes.withUnsafeBytes { source in
            for y in 0..<inHeight {
                premultiply(source.baseAddress! + y * inWidth * 4, into: row, count: inWidth)
                filterRow(row, into: intermediate + y * outWidth, horizontal)
            }
        }
        var output = [UInt8](repeating: 0, count: outWidth * outHeight * 4)
        let sum = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: outWidth)
        defer { sum.deallocate() }
        output.withUnsafeMutableBytes { destination in
            for y in 0..<outHeight {
                filterColumns(intermediate, width: outWidth, row: y, into: sum, vertical)
                unpremultiply(sum, into: destination.baseAddress! + y * outWidth * 4, count: outWidth)
            }
        }
        return PixelBuffer(width: outWidth, height: outHeight, bytes: output)
    }

    /// One source row as premultiplied Float pixels. Most rows are opaque, so the row is
    /// converted first and premultiplied only if some alpha is under 255.
    private static func premultiply(_ source: UnsafeRawPointer, into row: UnsafeMutablePointer<SIMD4<Float>>, count: Int) {
        var minimumAlpha: Float = 255
        for x in 0..<count {
            let pixel = SIMD4<Float>(source.loadUnaligned(fromByteOffset: x * 4, as: SIMD4<UInt8>.self))
            minimumAlpha = min(minimumAlpha, pixel.w)
            row[x] = pixel
        }
        guard minimumAlpha < 255 else { return }
        for x in 0..<count { row[x] = PremultipliedRGBA.premultiplied(row[x]) }
    }

    /// One row filtered along its length.
    private static func filterRow(_ row: UnsafePointer<SIMD4<Float>>, into out: UnsafeMutablePointer<SIMD4<Float>>,
                                  _ table: FilterTable) {
        table.starts.withUnsafeBufferPointer { starts in
            table.counts.withUnsafeBufferPointer { counts in
                table.weights.withUnsafeBufferPointer { weights in
                    for x in 0..<table.outputSize {
                        var pixel = row + starts[x]
                        var weight = weights.baseAddress! + x * table.stride
                        // Two sums break the chain of dependent additions.
                        var even = SIMD4<Float>(), odd = SIMD4<Float>()
                        var remaining = counts[x]
                        while remaining >= 2 {
                            even += pixel[0] * weight[0]
                            odd += pixel[1] * weight[1]
                            pixel += 2
                            weight += 2
                            remaining -= 2
                        }
                        if remaining == 1 { even += pixel[0] * weight[0] }
                        out[x] = even + odd
                    }
                }
            }
        }
    }

    /// Output row `row` of the vertical pass: the weighted sum of the intermediate rows.
    private static func filterColumns(_ image: UnsafePointer<SIMD4<Float>>, width: Int, row: Int,
                                      into sum: UnsafeMutablePointer<SIMD4<Float>>, _ table: FilterTable) {
        let start = table.starts[row], count = table.counts[row]
        table.weights.withUnsafeBufferPointer { weights in
            let weight = weights.baseAddress! + row * table.stride
            sum.update(repeating: SIMD4<Float>(), count: width)
            var k = 0
            // Two source rows a step halves the loads and stores of the sums.
            while k + 1 < count {
                let a = image + (start + k) * width, wa = weight[k]
                let b = image + (start + k + 1) * width, wb = weight[k + 1]
                for x in 0..<width { sum[x] += a[x] * wa + b[x] * wb }
                k += 2
            }
            if k < count {
                let a = image + (start + k) * width, wa = weight[k]
                for x in 0..<width { sum[x] += a[x] * wa }
            }
        }
    }

    /// One row of premultiplied Float pixels back to RGBA8.
    private static func unpremultiply(_ row: UnsafePointer<SIMD4<Float>>, into out: UnsafeMutableRawPointer, count: Int) {
        for x in 0..<count { PremultipliedRGBA.store(row[x], to: out, at: x * 4) }
    }
}
