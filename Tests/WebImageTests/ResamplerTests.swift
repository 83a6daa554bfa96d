import WebImage
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
}
