import WebImage
import XCTest

/// ``NinePatch`` and ``NinePatchFrameTransformer`` as thumbor's `frame` filter uses them: the
/// markers read from the border, fixed corners kept at their size, stretching runs sharing the
/// rest, and the image set in the content area over an opaque fill.
final class NinePatchTests: XCTestCase {
    private let marker = RGBA(r: 0, g: 0, b: 0, a: 255)
    private let blue = RGBA(r: 0, g: 0, b: 255), green = RGBA(r: 0, g: 255, b: 0), red = RGBA(r: 255, g: 0, b: 0)

    /// A 7 × 7 nine-patch: a 5 × 5 picture with a one-pixel blue ring (its top-left corner
    /// green) and a transparent middle; the middle three columns and rows stretch, and the
    /// content area is the middle three (insets of 1 all round).
    private func ring() -> PixelBuffer {
        var pixels = PixelBuffer(width: 7, height: 7)
        for index in 1...5 {
            for (x, y) in [(index, 1), (index, 5), (1, index), (5, index)] { pixels[x, y] = blue }
        }
        pixels[1, 1] = green
        for index in 2...4 {
            for (x, y) in [(index, 0), (0, index), (index, 6), (6, index)] { pixels[x, y] = marker }
        }
        return pixels
    }

    func testTheMarkersAreReadFromTheBorder() throws {
        let patch = try XCTUnwrap(NinePatch(ring()))
        XCTAssertEqual(patch.picture.width, 5)
        XCTAssertEqual(patch.stretchyColumns, [false, true, true, true, false])
        XCTAssertEqual(patch.stretchyRows, [false, true, true, true, false])
        XCTAssertEqual(patch.contentInsets, NinePatch.Insets(top: 1, right: 1, bottom: 1, left: 1))
        var unmarked = ring()
        for index in 2...4 { unmarked[index, 6] = .clear }
        XCTAssertEqual(try XCTUnwrap(NinePatch(unmarked)).contentInsets, NinePatch.Insets(top: 1, right: 0, bottom: 1, left: 0),
                       "no content markers along the bottom: no side insets")
        XCTAssertNil(NinePatch(PixelBuffer(width: 2, height: 9)), "too small for a border and a picture")
    }

    func testFixedRunsKeepTheirSizeAndStretchingRunsShareTheRest() throws {
        let drawn = try XCTUnwrap(NinePatch(ring())).drawn(as: PixelSize(width: 20, height: 11))
        XCTAssertEqual(drawn.width, 20)
        XCTAssertEqual(drawn[0, 0], green, "the corner stays one pixel")
        XCTAssertEqual(drawn[1, 0], blue)
        XCTAssertEqual(drawn[19, 10], blue)
        XCTAssertEqual(drawn[18, 9].a, 0, "the stretched middle stays transparent")
        XCTAssertEqual(drawn[10, 0], blue, "the top edge stretches across")
        XCTAssertEqual(drawn[0, 5], blue, "the left edge stretches down")
        let small = try XCTUnwrap(NinePatch(ring())).drawn(as: PixelSize(width: 1, height: 1))
        XCTAssertEqual(small[0, 0], green, "fixed runs longer than the size are cut at its edge")
    }

    func testAFrameSetsTheImageInTheContentAreaOverTheFill() throws {
        var image = PixelBuffer(width: 10, height: 6, fill: red)
        image[9, 5] = .clear
        let transformer = NinePatchFrameTransformer.ninePatchFrame(try XCTUnwrap(NinePatch(ring())))
        XCTAssertEqual(transformer.framedSize(of: PixelSize(width: 10, height: 6)), PixelSize(width: 12, height: 8))
        let framed = try XCTUnwrap(transformer.transform(Image(frames: [ImageFrame(pixels: image, duration: 0.1),
                                                                        ImageFrame(pixels: image, duration: 0.1)]), forKey: ""))
        XCTAssertEqual(framed.frames.count, 2)
        XCTAssertEqual(framed.pixels.width, 12)
        XCTAssertEqual(framed.pixels.height, 8)
        XCTAssertEqual(framed.pixels[0, 0], green)
        XCTAssertEqual(framed.pixels[11, 4], blue)
        XCTAssertEqual(framed.pixels[1, 1], red, "the image's corner sits inside the ring")
        XCTAssertEqual(framed.pixels[10, 6], .white, "a transparent pixel shows the fill")
        XCTAssertFalse(framed.pixels.hasTransparency)
        XCTAssertNotEqual(transformer.key, NinePatchFrameTransformer(patch: try XCTUnwrap(NinePatch(ring())), fill: blue).key)
    }
}
