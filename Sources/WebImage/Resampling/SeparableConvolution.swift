/// Filters RGBA8 pixels with a horizontal then a vertical ``FilterTable``, on premultiplied
/// Float colour so a transparent pixel's colour never bleeds into its neighbours.
///
/// The source arrives a row at a time (all at once for ``apply(_:horizontal:vertical:)``, a
/// band at a time from a decoder that streams): each row is premultiplied into a scratch row
/// and filtered horizontally into a ring of Float rows as wide as the output, and each output
/// row is made, and un-premultiplied to RGBA8, as soon as the last source row it reads has
/// arrived. The ring holds only as many rows as the vertical filter's widest window, so a
/// resize never holds a full-height Float image, and a streaming decoder never holds the
/// full-size pixels. Each pixel is a `SIMD4<Float>`; nothing is allocated per pixel or per row.
///
/// Opaque pixels (a JPEG's, every image without an alpha channel) skip the alpha arithmetic: a
/// source row whose alpha is 255 throughout is not premultiplied, and an output row made only
/// of such rows is stored without dividing by its alpha, which is 255 there.
final class SeparableConvolution {
    private let horizontal: FilterTable
    private let vertical: FilterTable
    /// Horizontally filtered rows; source row `r` lives in slot `r % ringRows`.
    private let ring: UnsafeMutablePointer<SIMD4<Float>>
    private let ringRows: Int
    /// Whether the source row in each ring slot was fully opaque.
    private let ringOpaque: UnsafeMutablePointer<Bool>
    private let scratch: UnsafeMutablePointer<SIMD4<Float>>
    private let sum: UnsafeMutablePointer<SIMD4<Float>>
    private var output: [UInt8]
    /// Source rows received so far, and output rows made so far.
    private var received = 0
    private var made = 0

    /// A convolution of a source as wide as `horizontal`'s input and as tall as `vertical`'s.
    init(horizontal: FilterTable, vertical: FilterTable) {
        self.horizontal = horizontal
        self.vertical = vertical
        ringRows = max(1, vertical.stride)
        ring = .allocate(capacity: horizontal.outputSize * ringRows)
        ringOpaque = .allocate(capacity: ringRows)
        ringOpaque.initialize(repeating: true, count: ringRows)
        scratch = .allocate(capacity: max(1, horizontal.inputSize))
        sum = .allocate(capacity: max(1, horizontal.outputSize))
        output = [UInt8](repeating: 0, count: horizontal.outputSize * vertical.outputSize * 4)
        makeReadyRows()
    }

    deinit {
        ring.deallocate()
        ringOpaque.deallocate()
        scratch.deallocate()
        sum.deallocate()
    }

    /// `pixels` filtered by `horizontal` (whose input is the width) and `vertical` (the height).
    static func apply(_ pixels: PixelBuffer, horizontal: FilterTable, vertical: FilterTable) -> PixelBuffer {
        precondition(horizontal.inputSize == pixels.width && vertical.inputSize == pixels.height,
                     "filter tables must match the pixels")
        let convolution = SeparableConvolution(horizontal: horizontal, vertical: vertical)
        pixels.bytes.withUnsafeBytes { source in
            if let base = source.baseAddress { convolution.append(rows: base, count: pixels.height) }
        }
        return convolution.finish()
    }

    /// Source rows still expected.
    var remainingRows: Int { vertical.inputSize - received }

    /// Takes the next `count` source rows of RGBA8, `inputSize * 4` bytes each, back to back.
    func append(rows: UnsafeRawPointer, count: Int) {
        precondition(count <= remainingRows, "more rows than the source has")
        let width = horizontal.inputSize, outWidth = horizontal.outputSize
        for y in 0..<count {
            let slot = received % ringRows
            ringOpaque[slot] = premultiply(rows + y * width * 4, count: width)
            filterRow(into: ring + slot * outWidth)
            received += 1
            makeReadyRows()
        }
    }

    /// The output, once every source row has arrived.
    func finish() -> PixelBuffer {
        precondition(remainingRows == 0 && made == vertical.outputSize, "the source is incomplete")
        return PixelBuffer(width: horizontal.outputSize, height: vertical.outputSize, bytes: output)
    }

    /// Makes every output row whose source rows have all arrived.
    private func makeReadyRows() {
        let outWidth = horizontal.outputSize
        output.withUnsafeMutableBytes { destination in
            while made < vertical.outputSize, vertical.starts[made] + vertical.counts[made] <= received {
                filterColumns(row: made)
                let out = destination.baseAddress! + made * outWidth * 4
                if windowIsOpaque(row: made) {
                    storeOpaque(into: out, count: outWidth)
                } else {
                    unpremultiply(into: out, count: outWidth)
                }
                made += 1
            }
        }
    }

    /// One source row as premultiplied Float pixels in ``scratch``. Most rows are opaque, so
    /// the row is converted first and premultiplied only if some alpha is under 255; returns
    /// whether every alpha was 255.
    private func premultiply(_ source: UnsafeRawPointer, count: Int) -> Bool {
        var minimumAlpha: Float = 255
        for x in 0..<count {
            let pixel = SIMD4<Float>(source.loadUnaligned(fromByteOffset: x * 4, as: SIMD4<UInt8>.self))
            minimumAlpha = min(minimumAlpha, pixel.w)
            scratch[x] = pixel
        }
        guard minimumAlpha < 255 else { return true }
        for x in 0..<count { scratch[x] = PremultipliedRGBA.premultiplied(scratch[x]) }
        return false
    }

    /// Whether every source row output row `row` reads was opaque (they are all in the ring).
    private func windowIsOpaque(row: Int) -> Bool {
        let start = vertical.starts[row]
        for k in 0..<vertical.counts[row] where !ringOpaque[(start + k) % ringRows] { return false }
        return true
    }

    /// ``scratch`` filtered along its length into `out`.
    private func filterRow(into out: UnsafeMutablePointer<SIMD4<Float>>) {
        let table = horizontal, row = scratch
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

    /// Output row `row` of the vertical pass into ``sum``: the weighted sum of the ring's rows.
    private func filterColumns(row: Int) {
        let width = horizontal.outputSize, table = vertical
        let start = table.starts[row], count = table.counts[row]
        func source(_ k: Int) -> UnsafeMutablePointer<SIMD4<Float>> { ring + ((start + k) % ringRows) * width }
        table.weights.withUnsafeBufferPointer { weights in
            let weight = weights.baseAddress! + row * table.stride
            sum.update(repeating: SIMD4<Float>(), count: width)
            var k = 0
            // Two source rows a step halves the loads and stores of the sums.
            while k + 1 < count {
                let a = source(k), wa = weight[k]
                let b = source(k + 1), wb = weight[k + 1]
                for x in 0..<width { sum[x] += a[x] * wa + b[x] * wb }
                k += 2
            }
            if k < count {
                let a = source(k), wa = weight[k]
                for x in 0..<width { sum[x] += a[x] * wa }
            }
        }
    }

    /// ``sum`` back to RGBA8.
    private func unpremultiply(into out: UnsafeMutableRawPointer, count: Int) {
        for x in 0..<count { PremultipliedRGBA.store(sum[x], to: out, at: x * 4) }
    }

    /// ``sum``, made of opaque rows only, as opaque RGBA8: nothing to divide by alpha.
    private func storeOpaque(into out: UnsafeMutableRawPointer, count: Int) {
        for x in 0..<count { PremultipliedRGBA.storeOpaque(sum[x], to: out, at: x * 4) }
    }
}
