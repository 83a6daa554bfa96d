#if arch(x86_64)
import CResampling
#endif
import WebImage
import WebImageTestSupport
import XCTest

final class ResamplerTests: XCTestCase {
    func testAFlatColourStaysFlat() {
        let source = PixelBuffer(width: 97, height: 61, fill: RGBA(r: 200, g: 100, b: 50))
        for size in [PixelSize(width: 20, height: 13), PixelSize(width: 300, height: 7)] {
            let out = Resampler.resize(source, to: size)
            XCTAssertEqual(out.width, size.width)
            XCTAssertEqual(out.height, size.height)
            XCTAssertTrue(out.bytes.indices.allSatisfy { abs(Int(out.bytes[$0]) - Int(source.bytes[$0 % 4])) <= 1 })
        }
    }

    func testTransparentNeighboursDoNotDarkenAnEdge() {
        // Left half opaque white, right half transparent black: premultiplied filtering keeps the
        // visible colour white wherever any alpha remains.
        var source = PixelBuffer(width: 40, height: 4)
        for y in 0..<4 { for x in 0..<20 { source[x, y] = RGBA(r: 255, g: 255, b: 255) } }
        let out = Resampler.resize(source, to: PixelSize(width: 10, height: 1))
        for x in 0..<10 where out[x, 0].a > 8 {
            XCTAssertGreaterThanOrEqual(out[x, 0].r, 250, "pixel \(x) darkened: \(out[x, 0])")
        }
        XCTAssertEqual(out[0, 0].a, 255)
        XCTAssertEqual(out[9, 0].a, 0)
    }

    func testRowsNextToTransparentRowsAreUnpremultiplied() {
        // Opaque white rows above and below a band of transparent black rows: an output row that
        // reads only opaque rows is stored without the alpha division, one that reads any of the
        // transparent band is unpremultiplied, so it keeps its white wherever alpha remains.
        var source = PixelBuffer(width: 8, height: 60)
        for y in 0..<60 where y < 20 || y >= 40 { for x in 0..<8 { source[x, y] = RGBA(r: 255, g: 255, b: 255) } }
        let out = Resampler.resize(source, to: PixelSize(width: 4, height: 15))
        for y in 0..<15 where out[0, y].a > 8 {
            XCTAssertGreaterThanOrEqual(out[0, y].r, 250, "row \(y) darkened: \(out[0, y])")
        }
        XCTAssertEqual(out[0, 0].a, 255)
        XCTAssertEqual(out[0, 14].a, 255)
        XCTAssertLessThan(out[0, 7].a, 8, "the middle of the transparent band")
        XCTAssertTrue((1..<14).contains { out[0, $0].a > 8 && out[0, $0].a < 247 }, "a partly transparent row")
    }

    func testDownscalingAveragesAStripePattern() {
        // One-pixel black and white stripes average to mid-grey: an area-aware filter, not sampling.
        var source = PixelBuffer(width: 64, height: 64)
        for y in 0..<64 { for x in 0..<64 { let v: UInt8 = x % 2 == 0 ? 0 : 255; source[x, y] = RGBA(r: v, g: v, b: v) } }
        let out = Resampler.resize(source, to: PixelSize(8))
        for x in 1..<7 { XCTAssertEqual(Double(out[x, 4].r), 127.5, accuracy: 3) }
    }

    /// In linear light the stripes average to half their light, sRGB 187.5 (IEC 61966-2-1's
    /// curve), and a flat colour of any byte comes back as that byte: the tables lose nothing.
    func testLinearLightAveragesLightAndKeepsFlatColours() {
        var stripes = PixelBuffer(width: 64, height: 64)
        for y in 0..<64 { for x in 0..<64 { let v: UInt8 = x % 2 == 0 ? 0 : 255; stripes[x, y] = RGBA(r: v, g: v, b: v) } }
        let out = Resampler.resize(stripes, to: PixelSize(8), linearLight: true)
        for x in 1..<7 { XCTAssertEqual(Double(out[x, 4].r), 187.5, accuracy: 2) }
        for value in 0...255 {
            let v = UInt8(value)
            let flat = PixelBuffer(width: 9, height: 3, fill: RGBA(r: v, g: v, b: v, a: 255))
            XCTAssertEqual(Resampler.resize(flat, to: PixelSize(width: 4, height: 2), linearLight: true)[1, 1].r, v, "\(value)")
        }
    }

    /// Linear light with alpha: a transparent neighbour neither darkens nor lightens an edge,
    /// and the alpha is mixed as it is without linear light.
    func testLinearLightKeepsTransparentNeighboursOut() {
        var source = PixelBuffer(width: 40, height: 4)
        for y in 0..<4 { for x in 0..<20 { source[x, y] = RGBA(r: 90, g: 160, b: 220) } }
        let linear = Resampler.resize(source, to: PixelSize(width: 10, height: 1), linearLight: true)
        let plain = Resampler.resize(source, to: PixelSize(width: 10, height: 1))
        for x in 0..<10 {
            XCTAssertEqual(Int(linear[x, 0].a), Int(plain[x, 0].a), accuracy: 1)
            guard linear[x, 0].a > 8 else { continue }
            XCTAssertEqual(Int(linear[x, 0].r), 90, accuracy: 2, "pixel \(x): \(linear[x, 0])")
            XCTAssertEqual(Int(linear[x, 0].b), 220, accuracy: 2)
        }
    }
}

/// The resampler's vector loops (CResampling) against Lanczos-3 written out plainly in Double:
/// sizes that give every remainder of taps the loops handle apart, shrinking and enlarging,
/// opaque sources (filtered from their bytes with fixed-point weights) and sources with alpha
/// (premultiplied Floats).
final class ResamplerArithmeticTests: XCTestCase {
    #if arch(x86_64)
    /// The fixed-point row filter, in the code the CPU picks (AVX2 here) and in the baseline
    /// code, against the same sums in plain integers: every tap count from 1 to 40 (each
    /// remainder of the 8-, 4-, 2- and 1-tap steps), negative weights, 255s at the edges of
    /// the 16-bit products.
    func testTheFixedPointRowFilterSumsExactly() {
        var generator = SeededRandom(seed: 11)
        let width = 64, outCount = 40, pairStride = 20
        let row = (0..<width * 4).map { i in i % 7 == 0 ? 255 : UInt8(truncatingIfNeeded: generator.next()) }
        let counts = (0..<outCount).map { $0 + 1 }
        let starts = counts.map { Int(generator.next() % UInt64(width - $0 + 1)) }
        var pairs = [Int16](repeating: 0, count: outCount * pairStride * 8)
        var expected = [Float]()
        for x in 0..<outCount {
            let weights = (0..<counts[x]).map { _ in Int16(Int(generator.next() % 8_001) - 3_000) }
            for (k, weight) in weights.enumerated() {
                for lane in 0..<4 { pairs[(x * pairStride + k / 2) * 8 + k % 2 + lane * 2] = weight }
            }
            for channel in 0..<4 {
                let sum = weights.indices.reduce(0) { $0 + Int(row[(starts[x] + $1) * 4 + channel]) * Int(weights[$1]) }
                expected.append(Float(sum) / Float(WI_RESAMPLE_FIXED_ONE))
            }
        }
        for filter in [wi_resample_filter_row_bytes, wi_resample_filter_row_bytes_baseline] {
            var out = [Float](repeating: -1, count: outCount * 4)
            filter(row, &out, outCount, starts, counts, pairs, pairStride)
            XCTAssertEqual(out, expected)
        }
    }
    #endif

    func testEveryOutputPixelMatchesThePlainConvolution() {
        var generator = SeededRandom(seed: 7)
        let cases: [(PixelSize, PixelSize)] = [
            (PixelSize(width: 37, height: 23), PixelSize(width: 11, height: 7)),
            (PixelSize(width: 64, height: 9), PixelSize(width: 5, height: 9)),
            (PixelSize(width: 13, height: 17), PixelSize(width: 29, height: 40)),
            (PixelSize(width: 101, height: 3), PixelSize(width: 33, height: 2)),
            (PixelSize(width: 1, height: 30), PixelSize(width: 3, height: 4)),
        ]
        for (sourceSize, size) in cases {
            for opaque in [true, false] {
                let bytes = (0..<sourceSize.area * 4).map { i -> UInt8 in
                    opaque && i % 4 == 3 ? 255 : UInt8(truncatingIfNeeded: generator.next())
                }
                let source = PixelBuffer(width: sourceSize.width, height: sourceSize.height, bytes: bytes)
                let out = Resampler.resize(source, to: size)
                let expected = PlainLanczos.resize(source, to: size)
                let worst = zip(out.bytes, expected).map { abs(Int($0) - $1) }.max() ?? 0
                XCTAssertLessThanOrEqual(worst, 1, "\(sourceSize) → \(size), opaque: \(opaque)")
            }
        }
    }
}

/// Pillow's Lanczos-3 (the kernel widened by the reduction when shrinking, weights normalised),
/// horizontal then vertical, on premultiplied Double colour, each channel rounded at the end.
private enum PlainLanczos {
    static func resize(_ source: PixelBuffer, to size: PixelSize) -> [Int] {
        let across = weights(from: source.width, to: size.width)
        let down = weights(from: source.height, to: size.height)
        var rows = [[Double]](repeating: [], count: source.height)
        for y in 0..<source.height {
            var row = [Double](repeating: 0, count: size.width * 4)
            for x in 0..<size.width {
                for (i, w) in across[x] {
                    let pixel = source[i, y], alpha = Double(pixel.a)
                    let colour = [Double(pixel.r) * alpha / 255, Double(pixel.g) * alpha / 255, Double(pixel.b) * alpha / 255, alpha]
                    for c in 0..<4 { row[x * 4 + c] += colour[c] * w }
                }
            }
            rows[y] = row
        }
        var out = [Int]()
        for y in 0..<size.height {
            for x in 0..<size.width {
                var sum = [Double](repeating: 0, count: 4)
                for (j, w) in down[y] { for c in 0..<4 { sum[c] += rows[j][x * 4 + c] * w } }
                let alpha = min(max(sum[3], 0), 255)
                for c in 0..<3 {
                    out.append(alpha < 0.5 ? 0 : Int(min(max(sum[c] * 255 / alpha, 0), 255) + 0.5))
                }
                out.append(alpha < 0.5 ? 0 : Int(alpha + 0.5))
            }
        }
        return out
    }

    /// For each output position, its input indices and normalised weights.
    private static func weights(from input: Int, to output: Int) -> [[(Int, Double)]] {
        let scale = Double(output) / Double(input)
        let support = 3 * max(1, 1 / scale)
        return (0..<output).map { i in
            let center = (Double(i) + 0.5) / scale
            let first = max(0, Int((center - support).rounded(.down)))
            let last = min(input, Int((center + support).rounded(.up)))
            let raw = (first..<last).map { j -> (Int, Double) in
                let x = (Double(j) + 0.5 - center) / max(1, 1 / scale)
                return (j, lanczos3(x))
            }
            let total = raw.reduce(0) { $0 + $1.1 }
            return raw.map { ($0.0, total == 0 ? 0 : $0.1 / total) }
        }
    }

    private static func lanczos3(_ x: Double) -> Double {
        if x == 0 { return 1 }
        if abs(x) >= 3 { return 0 }
        return 3 * sin(.pi * x) * sin(.pi * x / 3) / (.pi * x * .pi * x)
    }
}

/// The kernels of ``ResamplingFilter`` on a step from 64 to 192 enlarged ten times: nearest
/// makes no new value, linear none outside the step's two, Lanczos and Catmull-Rom ring
/// past both sides of the edge.
final class ResamplingFilterTests: XCTestCase {
    private func enlargedStep(_ filter: ResamplingFilter) -> [Int] {
        var step = PixelBuffer(width: 4, height: 1)
        for x in 0..<4 { step[x, 0] = x < 2 ? RGBA(r: 64, g: 64, b: 64) : RGBA(r: 192, g: 192, b: 192) }
        let enlarged = Resampler.resize(step, to: PixelSize(width: 40, height: 1), filter: filter)
        return (0..<40).map { Int(enlarged[$0, 0].r) }
    }

    func testEachKernelOnAStep() {
        XCTAssertEqual(Set(enlargedStep(.nearest)), [64, 192])
        XCTAssertEqual(enlargedStep(.nearest), [Int](repeating: 64, count: 20) + [Int](repeating: 192, count: 20))
        let linear = enlargedStep(.linear)
        XCTAssertEqual(linear, linear.sorted(), "a ramp without ringing")
        XCTAssertTrue(linear.allSatisfy { (64...192).contains($0) })
        XCTAssertGreaterThan(Set(linear).count, 5, "new values between the two")
        for filter in [ResamplingFilter.cubic, .lanczos2, .lanczos3] {
            let values = enlargedStep(filter)
            XCTAssertLessThan(values.min() ?? 0, 64, "\(filter) undershoots before the edge")
            XCTAssertGreaterThan(values.max() ?? 0, 192, "\(filter) overshoots after it")
        }
        XCTAssertEqual(Resampler.resize(PixelBuffer(width: 3, height: 3, fill: .white), to: PixelSize(width: 1, height: 1), filter: .nearest)[0, 0],
                       .white)
    }
}
