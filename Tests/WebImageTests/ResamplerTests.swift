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

    func testDownscalingAveragesAStripePattern() {
        // One-pixel black and white stripes average to mid-grey: an area-aware filter, not sampling.
        var source = PixelBuffer(width: 64, height: 64)
        for y in 0..<64 { for x in 0..<64 { let v: UInt8 = x % 2 == 0 ? 0 : 255; source[x, y] = RGBA(r: v, g: v, b: v) } }
        let out = Resampler.resize(source, to: PixelSize(8))
        for x in 1..<7 { XCTAssertEqual(Double(out[x, 4].r), 127.5, accuracy: 3) }
    }
}
