import Foundation
import XCTest
import WebImage
import WebImageTestSupport
@testable import WebImageCodecs

/// The PNG and APNG cases of issue 18 on the files `scripts/make-conformance-fixtures.py`
/// writes: Pillow is the reference where it follows the specs; where it does not (its APNG
/// "over" is a masked paste, so alpha fades), the APNG suite's stated results and the
/// Porter-Duff formula are.
final class PNGConformanceTests: XCTestCase {
    private let coder = PNGCoder()

    private func decode(_ name: String) throws -> Image {
        try coder.decode(Fixtures.generatedData(name), options: ImageDecodeOptions())
    }

    func testOneBitGreyKeepsItsTRNSTransparency() throws {
        // Columns alternate grey 0 and grey 1; the tRNS grey is 1 (white).
        let data = try Fixtures.generatedData("grey1_trns.png")
        let image = try coder.decode(data, options: ImageDecodeOptions())
        XCTAssertEqual(image.pixels[0, 0], RGBA(r: 0, g: 0, b: 0, a: 255))
        XCTAssertEqual(image.pixels[1, 0].a, 0)
        assertSamePixels(image.pixels, try Pillow.frame(0, of: Fixtures.generated("grey1_trns.png")), "grey1_trns vs Pillow")
        let partial = try XCTUnwrap(coder.decodePartial(data, options: ImageDecodeOptions()))
        XCTAssertEqual(partial.pixels, image.pixels, "the progressive reader")
    }

    /// The APNG suite's "other depths and colour types": each ends as the suite says.
    func testFramesOfOtherColourTypesCompositeAsTheSuiteSays() throws {
        let cases: [(String, frames: Int, RGBA)] = [
            ("apng_16bit.png", 3, RGBA(r: 0, g: 0, b: 128, a: 255)),           // "dark blue"
            ("apng_palette1_trns.png", 3, RGBA(r: 0, g: 0, b: 128, a: 255)),   // "solid dark blue"
            // White at alpha 128 over itself: 128 + 128 * 127 / 255 = 191.75.
            ("apng_grey_alpha.png", 4, RGBA(r: 255, g: 255, b: 255, a: 192)),
        ]
        for (name, frames, last) in cases {
            let image = try decode(name)
            XCTAssertEqual(image.frames.count, frames, name)
            let pixels = image.frames.last!.pixels
            XCTAssertEqual(Set((0..<pixels.height).flatMap { y in (0..<pixels.width).map { pixels[$0, y] } }), [last], name)
            try assertHeaderMatches(name, image)
        }
    }

    /// "Over" for every source alpha on every canvas alpha against the exact formula,
    /// out_a = sa + da(1 − sa), out_c = (sc·sa + dc·da(1 − sa)) / out_a, rounded to nearest.
    func testOverMatchesTheExactFormulaForEveryAlphaPair() {
        let source: (r: Int, g: Int, b: Int) = (200, 10, 255), canvasColour: (r: Int, g: Int, b: Int) = (30, 220, 0)
        var below = PixelBuffer(width: 256, height: 256), above = PixelBuffer(width: 256, height: 256)
        for y in 0..<256 {
            for x in 0..<256 {
                below[x, y] = RGBA(r: UInt8(canvasColour.r), g: UInt8(canvasColour.g), b: UInt8(canvasColour.b), a: UInt8(y))
                above[x, y] = RGBA(r: UInt8(source.r), g: UInt8(source.g), b: UInt8(source.b), a: UInt8(x))
            }
        }
        var canvas = APNGCanvas(size: PixelSize(width: 256, height: 256))
        func whole(_ blend: APNGFrame.Blend) -> APNGFrame {
            APNGFrame(region: .init(x: 0, y: 0, width: 256, height: 256), duration: 0, disposal: .none, blend: blend,
                      source: .defaultImage)
        }
        canvas.draw(below, as: whole(.source), isFirst: true)
        canvas.draw(above, as: whole(.over), isFirst: false)
        var wrong = 0
        for da in 0..<256 {
            for sa in 0..<256 {
                let got = canvas.pixels[sa, da]
                let weight = Double(sa) * 255 + Double(da) * Double(255 - sa)
                let alpha = (weight / 255).rounded()
                func channel(_ s: Int, _ d: Int) -> Double {
                    ((Double(s) * Double(sa) * 255 + Double(d) * Double(da) * Double(255 - sa)) / weight).rounded()
                }
                if weight == 0 {
                    if got.a != 0 { wrong += 1 }
                } else if Double(got.a) != alpha || Double(got.r) != channel(source.r, canvasColour.r)
                            || Double(got.g) != channel(source.g, canvasColour.g) || Double(got.b) != channel(source.b, canvasColour.b) {
                    wrong += 1
                }
            }
        }
        XCTAssertEqual(wrong, 0, "pixels off the exact formula")
    }

    func testOverOntoNearlyTransparentCanvases() throws {
        // The suite's "APNG_BLEND_OP_OVER repeatedly with nearly-transparent colours": solid green.
        let faint = try decode("apng_over_faint.png")
        XCTAssertEqual(faint.frames.count, 62)
        XCTAssertEqual(faint.frames.last!.pixels[0, 0], RGBA(r: 0, g: 255, b: 0, a: 255))
        XCTAssertEqual(faint.frames.last!.pixels[15, 7], RGBA(r: 0, g: 255, b: 0, a: 255))
        // Blue at alpha 1, green at 128 over it, red at 1 over that, in 8-bit steps:
        // (0, 254, 1, 128), then alpha (255 + 128 · 254) / 255 = 128.5 → 128 and
        // red 255 · 255 / 32767 = 1.98 → 2, green 254 · 32512 / 32767 = 252.02 → 252.
        let clear = try decode("apng_over_clear.png")
        XCTAssertEqual(clear.frames[2].pixels[0, 0], RGBA(r: 0, g: 254, b: 1, a: 128))
        XCTAssertEqual(clear.frames[3].pixels[0, 0], RGBA(r: 2, g: 252, b: 1, a: 128))
    }

    func testAnFCTLBeforeTheACTLStillAnimates() throws {
        let image = try decode("apng_fctl_first.png")
        XCTAssertEqual(image.frames.count, 2)
        XCTAssertEqual(image.durations, [0.1, 1])
        let url = Fixtures.generated("apng_fctl_first.png")
        assertSamePixels(image.frames[0].pixels, try Pillow.frame(0, of: url), "frame 0 (red default image) vs Pillow")
        assertSamePixels(image.frames[1].pixels, try Pillow.frame(1, of: url), "frame 1 (green) vs Pillow")
        XCTAssertEqual(image.frames[1].pixels[0, 0], RGBA(r: 0, g: 255, b: 0, a: 255))
        try assertHeaderMatches("apng_fctl_first.png", image)
    }

    func testTwoACTLChunksShowTheDefaultImage() throws {
        let image = try decode("apng_two_actl.png")
        XCTAssertEqual(image.frames.count, 1)
        XCTAssertEqual(image.pixels[0, 0], RGBA(r: 0, g: 255, b: 0, a: 255))
        assertSamePixels(image.pixels, try Pillow.frame(0, of: Fixtures.generated("apng_two_actl.png")), "vs Pillow")
        try assertHeaderMatches("apng_two_actl.png", image)
    }
}
