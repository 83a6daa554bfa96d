import CResampling

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
///
/// In linear light (``linearLight``), each source byte is turned into its light first and each
/// output pixel encoded back to sRGB (``LinearLight``), so mixes are as bright as the light
/// they average; the fixed-point path, which filters bytes as they are, is not taken.
///
/// The loops over pixels are C (`CResampling`), built for AVX2 and FMA as well as the baseline
/// on x86-64: Swift's `SIMD4<Float>` stays on SSE without a target flag, which a package that
/// others depend on cannot set.
final class SeparableConvolution {
    private let horizontal: FilterTable
    private let vertical: FilterTable
    /// Whether the filters mix linear light rather than the sRGB-encoded bytes.
    private let linearLight: Bool
    /// `horizontal`'s weights, each written four times (once a channel), as the row filter takes them.
    private let horizontalWeights: UnsafeMutablePointer<Float>
    #if arch(x86_64)
    /// `horizontal`'s weights in fixed point (`FilterTable.fixedPointPairs()`), for opaque rows.
    private let horizontalPairs: [Int16]?
    #endif
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

    /// A convolution of a source as wide as `horizontal`'s input and as tall as `vertical`'s,
    /// mixing linear light when `linearLight`.
    init(horizontal: FilterTable, vertical: FilterTable, linearLight: Bool = false) {
        self.horizontal = horizontal
        self.vertical = vertical
        self.linearLight = linearLight
        horizontalWeights = .allocate(capacity: max(1, horizontal.weights.count * 4))
        for (i, weight) in horizontal.weights.enumerated() {
            (horizontalWeights + i * 4).initialize(repeating: weight, count: 4)
        }
        #if arch(x86_64)
        horizontalPairs = horizontal.fixedPointPairs()
        #endif
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
        horizontalWeights.deallocate()
        ring.deallocate()
        ringOpaque.deallocate()
        scratch.deallocate()
        sum.deallocate()
    }

    /// `pixels` filtered by `horizontal` (whose input is the width) and `vertical` (the height).
    /// Mixes linear light when `linearLight`.
    static func apply(_ pixels: PixelBuffer, horizontal: FilterTable, vertical: FilterTable, linearLight: Bool = false) -> PixelBuffer {
        precondition(horizontal.inputSize == pixels.width && vertical.inputSize == pixels.height,
                     "filter tables must match the pixels")
        let convolution = SeparableConvolution(horizontal: horizontal, vertical: vertical, linearLight: linearLight)
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
            let row = (rows + y * width * 4).assumingMemoryBound(to: UInt8.self)
            ringOpaque[slot] = filter(row, into: floats(ring + slot * outWidth))
            received += 1
            makeReadyRows()
        }
    }

    /// One source row of `horizontal.inputSize` RGBA8 pixels filtered into `out`; returns
    /// whether every alpha was 255. On x86-64 an opaque row is filtered from its bytes with
    /// fixed-point weights (half the loads of Floats, and no widening); any other row is
    /// widened to Floats and premultiplied first.
    private func filter(_ row: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<Float>) -> Bool {
        let width = horizontal.inputSize, outWidth = horizontal.outputSize
        return horizontal.starts.withUnsafeBufferPointer { starts in
            horizontal.counts.withUnsafeBufferPointer { counts in
                #if arch(x86_64)
                if !linearLight, let horizontalPairs, wi_resample_row_is_opaque(row, width) {
                    horizontalPairs.withUnsafeBufferPointer { pairs in
                        wi_resample_filter_row_bytes(
                            row, out, outWidth, starts.baseAddress, counts.baseAddress, pairs.baseAddress,
                            horizontal.fixedPointPairStride)
                    }
                    return true
                }
                #endif
                let opaque = premultiply(row, count: width)
                wi_resample_filter_row(
                    floats(scratch), out, outWidth, starts.baseAddress, counts.baseAddress, horizontalWeights,
                    horizontal.stride)
                return opaque
            }
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
                if linearLight {
                    storeLinear(into: out, count: outWidth, opaque: windowIsOpaque(row: made))
                } else if windowIsOpaque(row: made) {
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
    private func premultiply(_ source: UnsafePointer<UInt8>, count: Int) -> Bool {
        let opaque = wi_resample_load_row(source, floats(scratch), count)
        if linearLight {
            let light = LinearLight.decoding
            for x in 0..<count {
                let pixel = scratch[x]
                scratch[x] = SIMD4(light[Int(pixel.x)], light[Int(pixel.y)], light[Int(pixel.z)], pixel.w)
            }
        }
        guard !opaque else { return true }
        for x in 0..<count { scratch[x] = PremultipliedRGBA.premultiplied(scratch[x]) }
        return false
    }

    /// Whether every source row output row `row` reads was opaque (they are all in the ring).
    private func windowIsOpaque(row: Int) -> Bool {
        let start = vertical.starts[row]
        for k in 0..<vertical.counts[row] where !ringOpaque[(start + k) % ringRows] { return false }
        return true
    }

    /// Output row `row` of the vertical pass into ``sum``: the weighted sum of the ring's rows.
    private func filterColumns(row: Int) {
        vertical.weights.withUnsafeBufferPointer { weights in
            wi_resample_sum_rows(
                floats(ring), ringRows, vertical.starts[row] % ringRows, vertical.counts[row],
                weights.baseAddress! + row * vertical.stride, horizontal.outputSize, floats(sum))
        }
    }

    /// ``sum`` back to RGBA8.
    private func unpremultiply(into out: UnsafeMutableRawPointer, count: Int) {
        for x in 0..<count { PremultipliedRGBA.store(sum[x], to: out, at: x * 4) }
    }

    /// ``sum``, in linear light, back to sRGB-encoded RGBA8; `opaque` when made of opaque rows
    /// only, with nothing to divide by alpha.
    private func storeLinear(into out: UnsafeMutableRawPointer, count: Int, opaque: Bool) {
        let bytes = out.assumingMemoryBound(to: UInt8.self)
        for x in 0..<count {
            let pixel = sum[x], p = bytes + x * 4
            let alpha = opaque ? 255 : min(max(pixel.w, 0), 255)
            guard alpha >= 0.5 else {
                p.update(repeating: 0, count: 4)
                continue
            }
            let scale = opaque ? 1 : 255 / alpha
            p[0] = LinearLight.encode(pixel.x * scale)
            p[1] = LinearLight.encode(pixel.y * scale)
            p[2] = LinearLight.encode(pixel.z * scale)
            p[3] = UInt8(alpha + 0.5)
        }
    }

    /// ``sum``, made of opaque rows only, as opaque RGBA8: nothing to divide by alpha.
    private func storeOpaque(into out: UnsafeMutableRawPointer, count: Int) {
        wi_resample_store_opaque(floats(sum), out.assumingMemoryBound(to: UInt8.self), count)
    }

    /// Pixels as the Floats the C loops take, four a pixel.
    private func floats(_ pixels: UnsafeMutablePointer<SIMD4<Float>>) -> UnsafeMutablePointer<Float> {
        UnsafeMutableRawPointer(pixels).assumingMemoryBound(to: Float.self)
    }
}
