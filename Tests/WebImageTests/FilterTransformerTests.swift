import WebImage
import XCTest

/// The transformers imgproxy's and thumbor's options map onto, as a library user calls them: trim, padding,
/// sharpen, pixelate and convolution, on pixels and keys.
final class FilterTransformerTests: XCTestCase {
    private let white = RGBA(r: 255, g: 255, b: 255), black = RGBA(r: 0, g: 0, b: 0)

    /// A `width` × `height` white image with a black rectangle at `rect`.
    private func box(_ width: Int, _ height: Int, _ rect: PixelRect) -> Image {
        var pixels = PixelBuffer(width: width, height: height, fill: white)
        for y in rect.y..<(rect.y + rect.height) { for x in rect.x..<(rect.x + rect.width) { pixels[x, y] = black } }
        return Image(pixels: pixels)
    }

    func testTrimRemovesTheBorderAndIgnoresAStrayPixel() throws {
        var image = box(40, 30, PixelRect(x: 5, y: 4, width: 20, height: 10))
        image.frames[0].pixels[38, 28] = black  // a speck the median ignores
        let trimmed = try XCTUnwrap(TrimmingTransformer(threshold: 10).transform(image, forKey: ""))
        XCTAssertEqual([trimmed.pixelWidth, trimmed.pixelHeight], [20, 10])
        XCTAssertEqual(TrimmingTransformer(threshold: 10).content(of: image.pixels), PixelRect(x: 5, y: 4, width: 20, height: 10))
        let equal = try XCTUnwrap(TrimmingTransformer.trim(threshold: 10, equalHorizontal: true, equalVertical: true)
            .transform(image, forKey: ""))
        // Left 5 and right 15 lose 5 each; top 4 and bottom 16 lose 4 each.
        XCTAssertEqual([equal.pixelWidth, equal.pixelHeight], [30, 22])
        XCTAssertNil(TrimmingTransformer(threshold: 10).transform(Image(pixels: PixelBuffer(width: 5, height: 5, fill: white)), forKey: ""))
        XCTAssertEqual(TrimmingTransformer.trim(threshold: 1, colour: black, equalHorizontal: true).key, "trim(1,#000000FF,equal-horizontal)")
    }

    func testTrimFromTheBottomRightTakesThatPixelsColour() throws {
        var image = box(40, 30, PixelRect(x: 0, y: 0, width: 6, height: 6))  // black in the top left corner
        image.frames[0].pixels[20, 20] = black
        XCTAssertEqual(TrimmingTransformer(threshold: 10).content(of: image.pixels), PixelRect(x: 0, y: 0, width: 40, height: 30),
                       "from the top left, the white is content")
        let trimmer = TrimmingTransformer.trim(threshold: 10, fromBottomRight: true)
        XCTAssertEqual(trimmer.content(of: image.pixels), PixelRect(x: 0, y: 0, width: 6, height: 6))
        XCTAssertEqual(trimmer.key, "trim(10,bottom-right)")
        XCTAssertFalse(TrimmingTransformer(threshold: 1, colour: black, fromBottomRight: true).fromBottomRight, "a colour wins")
    }

    /// thumbor's _convolution.c: weights over their sum, sums truncated, edges repeated.
    func testConvolutionWeighsTheNeighbours() throws {
        var pixels = PixelBuffer(width: 5, height: 5, fill: black)
        pixels[0, 2] = white
        let kernel = try XCTUnwrap(ConvolutionTransformer(weights: [1, 2, 1, 2, 4, 2, 1, 2, 1], columns: 3, normalize: true))
        let out = try XCTUnwrap(kernel.transform(Image(pixels: pixels), forKey: "")).pixels
        // The edge repeats: pixel 0 sees itself at -1 too, 255 × (2 + 4) / 16.
        XCTAssertEqual([out[0, 2].r, out[1, 2].r, out[1, 1].r, out[2, 2].r, out[0, 2].a], [95, 31, 15, 0, 255])
        XCTAssertEqual(kernel.key, "convolution(3,0.0625,0.125,0.0625,0.125,0.25,0.125,0.0625,0.125,0.0625)")
        XCTAssertNil(ConvolutionTransformer(weights: [1, 2, 1, 2], columns: 2, normalize: true), "no centre")
        XCTAssertNil(ConvolutionTransformer(weights: [1, 2, 1], columns: 0, normalize: true))
        XCTAssertNil(ConvolutionTransformer(weights: [1, .nan, 1], columns: 3, normalize: false))
        let sharpen = try XCTUnwrap(ConvolutionTransformer(weights: [-1, 3, -1], columns: 3, normalize: false))
        XCTAssertEqual(sharpen.transform(Image(pixels: pixels), forKey: "")?.pixels[0, 2].r, 255)
    }

    func testPaddingSurroundsWithTheFill() throws {
        let image = Image(pixels: PixelBuffer(width: 2, height: 2, fill: black))
        let padded = try XCTUnwrap(PaddingTransformer.padding(top: 1, right: 2, bottom: 3, left: 4, fill: white).transform(image, forKey: ""))
        XCTAssertEqual([padded.pixelWidth, padded.pixelHeight], [8, 6])
        XCTAssertEqual(padded.pixels[4, 1], black)
        XCTAssertEqual(padded.pixels[3, 1], white)
        XCTAssertEqual(padded.pixels[6, 1], white)
        XCTAssertNil(PaddingTransformer(top: 0, right: 0, bottom: 0, left: 0).transform(image, forKey: ""))
        XCTAssertEqual(PaddingTransformer(top: 1, right: 2, bottom: 3, left: 4).key, "padding(1,2,3,4,#00000000)")
    }

    func testSharpenSteepensAnEdgeAndPixelateAverages() throws {
        let edge = box(20, 4, PixelRect(x: 10, y: 0, width: 10, height: 4))
        var grey = edge
        grey.frames[0].pixels = PixelBuffer(width: 20, height: 4, fill: RGBA(r: 128, g: 128, b: 128))
        for y in 0..<4 { for x in 10..<20 { grey.frames[0].pixels[x, y] = RGBA(r: 64, g: 64, b: 64) } }
        let sharp = try XCTUnwrap(SharpeningTransformer.sharpen(sigma: 1).transform(grey, forKey: ""))
        XCTAssertGreaterThan(sharp.pixels[9, 2].r, 128, "the light side of the edge gets lighter")
        XCTAssertLessThan(sharp.pixels[10, 2].r, 64, "the dark side darker")
        XCTAssertEqual(sharp.pixels[0, 2].r, 128, "flat areas stay")
        let blocks = try XCTUnwrap(PixelatingTransformer.pixelate(size: 4).transform(edge, forKey: ""))
        XCTAssertEqual(blocks.pixels[4, 0], white)
        XCTAssertEqual(blocks.pixels[12, 3], black)
        let uneven = try XCTUnwrap(PixelatingTransformer(size: 3).transform(edge, forKey: ""))
        XCTAssertEqual(uneven.pixels[9, 0], RGBA(r: 85, g: 85, b: 85), "columns 9…11: one white, two black")
        XCTAssertNil(PixelatingTransformer(size: 1).transform(edge, forKey: ""))
        XCTAssertEqual(SharpeningTransformer(sigma: 1.5).key, "sharpen(1.5)")
    }
}
