@testable import WebImageServer
import WebImage
import XCTest

/// The transformer's pixel work on tiny synthetic images whose every pixel is known.
final class ProcessingTransformerTests: XCTestCase {
    private let red = RGBA(r: 255, g: 0, b: 0, a: 255), blue = RGBA(r: 0, g: 0, b: 255, a: 255)

    private func transform(_ image: Image, _ optionPath: String) throws -> Image {
        let options = try ProcessingURLParser().parse("/s/\(optionPath)/plain/http://h/x").options
        return try XCTUnwrap(ProcessingTransformer(options: options).transform(image, forKey: ""))
    }

    /// Red on the left, blue on the right, 2 × 1.
    private var redThenBlue: Image {
        var pixels = PixelBuffer(width: 2, height: 1, fill: red)
        pixels.bytes[4...7] = [0, 0, 255, 255]
        return Image(pixels: pixels)
    }

    func testRotationIsClockwiseAsImgproxys() throws {
        let quarter = try transform(redThenBlue, "rot:90")
        XCTAssertEqual([quarter.pixelWidth, quarter.pixelHeight], [1, 2])
        XCTAssertEqual(quarter.pixels[0, 0], red)
        XCTAssertEqual(quarter.pixels[0, 1], blue)
        let half = try transform(redThenBlue, "rot:180")
        XCTAssertEqual(half.pixels[0, 0], blue)
        let threeQuarters = try transform(redThenBlue, "rot:-90")
        XCTAssertEqual(threeQuarters.pixels[0, 0], blue)
    }

    func testAutoRotateOffUndoesTheAppliedOrientation() throws {
        for orientation in ImageOrientation.allCases {
            var shown = redThenBlue
            shown.frames[0].pixels = redThenBlue.pixels.applying(orientation)
            shown.orientation = orientation
            XCTAssertEqual(try transform(shown, "ar:0").pixels, redThenBlue.pixels, "\(orientation)")
            XCTAssertEqual(try transform(shown, "ar:1").pixels, shown.pixels, "\(orientation)")
        }
    }

    func testFillCropFollowsTheGravity() throws {
        let west = try transform(redThenBlue, "rs:fill:1:1/g:we")
        XCTAssertEqual(west.pixels[0, 0], red)
        let east = try transform(redThenBlue, "rs:fill:1:1/g:ea")
        XCTAssertEqual(east.pixels[0, 0], blue)
    }

    func testExtendPlacesTheImageByGravityOnTheBackground() throws {
        let white = RGBA(r: 255, g: 255, b: 255, a: 255)
        // extend takes a gravity of its own (imgproxy's rs:…:extend:gravity); the main one is the fill crop's.
        let extended = try transform(redThenBlue, "rs:fit:4:3:0:1:nowe/g:soea/bg:ffffff")
        XCTAssertEqual([extended.pixelWidth, extended.pixelHeight], [4, 3])
        XCTAssertEqual(extended.pixels[0, 0], red)
        XCTAssertEqual(extended.pixels[1, 0], blue)
        XCTAssertEqual(extended.pixels[3, 2], white)
        let transparent = try transform(redThenBlue, "rs:fit:4:3:0:1")
        XCTAssertEqual(transparent.pixels[0, 0], .clear)
        // Centred as imgproxy centres: the spare space plus one, halved, rounded half to even.
        XCTAssertEqual(transparent.pixels[2, 2], red)
    }

    func testFlatteningBlendsByAlpha() throws {
        let half = Image(pixels: PixelBuffer(width: 1, height: 1, fill: RGBA(r: 0, g: 0, b: 0, a: 128)))
        let flattened = try transform(half, "bg:255:255:255")
        XCTAssertEqual(flattened.pixels[0, 0], RGBA(r: 127, g: 127, b: 127, a: 255))
    }

    func testOutputSizeIsTheSizeTheTransformMakes() throws {
        var image = Image(pixels: PixelBuffer(width: 7, height: 5, fill: red))
        for orientation in [ImageOrientation.up, .right, .leftMirrored] {
            image.orientation = orientation
            for path in ["w:3", "h:4/rot:90", "rs:fill:4:4", "rs:fill-down:20:10", "rs:fit:20:20:1:1", "rs:force:2:9",
                         "c:0.5:3/w:2", "ar:0/rot:270/rs:auto:3:6", "rs:fit:10:10:0:1/dpr:1.5"] {
                let options = try ProcessingURLParser().parse("/s/\(path)/plain/http://h/x").options
                let transformer = ProcessingTransformer(options: options)
                let output = try XCTUnwrap(transformer.transform(image, forKey: ""))
                XCTAssertEqual(transformer.outputSize(for: image), PixelSize(width: output.pixelWidth, height: output.pixelHeight),
                               "\(path) \(orientation)")
            }
        }
    }
}
