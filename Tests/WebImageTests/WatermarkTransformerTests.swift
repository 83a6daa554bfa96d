import WebImage
import XCTest

/// ``WatermarkTransformer`` as a library user calls it: a mark laid once (clipped at the
/// edges) or tiled, with opacity over transparent and opaque pixels, on every frame.
final class WatermarkTransformerTests: XCTestCase {
    private let white = RGBA(r: 255, g: 255, b: 255), red = RGBA(r: 255, g: 0, b: 0)

    private func redPoints(_ pixels: PixelBuffer) -> Int {
        pixels.bytes.indices.filter { $0 % 4 == 0 }.filter { pixels.bytes[$0] == 255 && pixels.bytes[$0 + 1] == 0 }.count
    }

    func testOncePlacedAndClippedAtTheEdges() throws {
        let mark = PixelBuffer(width: 4, height: 3, fill: red)
        let image = Image(pixels: PixelBuffer(width: 10, height: 8, fill: white))
        let placed = try XCTUnwrap(WatermarkTransformer.watermark(mark, placement: .at(x: 2, y: 1)).transform(image, forKey: ""))
        XCTAssertEqual(placed.pixels[2, 1], red)
        XCTAssertEqual(placed.pixels[5, 3], red)
        XCTAssertEqual(placed.pixels[6, 3], white)
        XCTAssertEqual(placed.pixels[2, 4], white)
        XCTAssertEqual(redPoints(placed.pixels), 12)
        let clipped = try XCTUnwrap(WatermarkTransformer(mark: mark, placement: .at(x: 8, y: -1)).transform(image, forKey: ""))
        XCTAssertEqual(redPoints(clipped.pixels), 2 * 2)
        let outside = try XCTUnwrap(WatermarkTransformer(mark: mark, placement: .at(x: 20, y: 20)).transform(image, forKey: ""))
        XCTAssertEqual(outside.pixels, image.pixels)
    }

    func testTilingSpacesTheCopies() throws {
        let mark = PixelBuffer(width: 2, height: 2, fill: red)
        let image = Image(pixels: PixelBuffer(width: 9, height: 4, fill: white))
        let tiled = try XCTUnwrap(WatermarkTransformer(mark: mark, placement: .tiled(spacingX: 1, spacingY: 0)).transform(image, forKey: ""))
        // Cells of 3 × 2, the mark at the cell's left (the odd spare pixel after it).
        for x in 0..<9 {
            XCTAssertEqual(tiled.pixels[x, 0] == red, x % 3 != 2, "column \(x)")
            XCTAssertEqual(tiled.pixels[x, 3] == red, x % 3 != 2, "column \(x)")
        }
    }

    func testAGridLaysCountedCopiesAndSkipsThoseOutside() throws {
        let mark = PixelBuffer(width: 2, height: 1, fill: red)
        let image = Image(pixels: PixelBuffer(width: 10, height: 3, fill: white))
        // Two copies 4 apart from x = -1: the first cut to its last column; no third at 7.
        let grid = WatermarkTransformer(mark: mark, placement: .grid(x: -1, y: 1, stepX: 4, stepY: 1, columns: 2, rows: 1))
        let laid = try XCTUnwrap(grid.transform(image, forKey: ""))
        XCTAssertEqual((0..<10).filter { laid.pixels[$0, 1] == red }, [0, 3, 4])
        XCTAssertEqual(redPoints(laid.pixels), 3)
        // Many copies, most outside: only those reaching the frame are drawn.
        let many = WatermarkTransformer(mark: mark, placement: .grid(x: -1_000_000, y: 0, stepX: 2, stepY: 1,
                                                                     columns: 500_000, rows: 3))
        XCTAssertEqual(redPoints(try XCTUnwrap(many.transform(image, forKey: "")).pixels), 0, "the copies end at x = -2")
        let reaching = WatermarkTransformer(mark: mark, placement: .grid(x: -1_000_000, y: 0, stepX: 2, stepY: 1,
                                                                         columns: 500_005, rows: 3))
        XCTAssertEqual(redPoints(try XCTUnwrap(reaching.transform(image, forKey: "")).pixels), 30, "x = 0, 2, 4, 6, 8 on three rows")
        XCTAssertNotEqual(grid.key, WatermarkTransformer(mark: mark, placement: .at(x: -1, y: 1)).key)
    }

    func testOpacityOverOpaqueAndTransparentPixelsAndTheKey() throws {
        let mark = PixelBuffer(width: 1, height: 1, fill: red)
        let half = WatermarkTransformer(mark: mark, placement: .at(x: 0, y: 0), opacity: 0.5)
        let overWhite = try XCTUnwrap(half.transform(Image(pixels: PixelBuffer(width: 1, height: 1, fill: white)), forKey: ""))
        XCTAssertEqual(overWhite.pixels[0, 0], RGBA(r: 255, g: 128, b: 128))
        let overClear = try XCTUnwrap(half.transform(Image(pixels: PixelBuffer(width: 1, height: 1)), forKey: ""))
        XCTAssertEqual(overClear.pixels[0, 0], RGBA(r: 255, g: 0, b: 0, a: 128))
        XCTAssertNil(WatermarkTransformer(mark: mark, placement: .at(x: 0, y: 0), opacity: 0).transform(overWhite, forKey: ""))
        XCTAssertTrue(half.key.hasPrefix("watermark("))
        XCTAssertTrue(half.key.hasSuffix(",1x1,at:0:0,0.5)"))
        XCTAssertNotEqual(half.key, WatermarkTransformer(mark: PixelBuffer(width: 1, height: 1, fill: white),
                                                         placement: .at(x: 0, y: 0), opacity: 0.5).key, "the mark is in the key")
    }
}
