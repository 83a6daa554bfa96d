@testable import WebImageServer
import WebImage
import XCTest

/// thumbor's flips, turns, grey and fill on tiny synthetic images whose every pixel is known.
final class ThumborTransformTests: XCTestCase {
    private let red = RGBA(r: 255, g: 0, b: 0, a: 255), blue = RGBA(r: 0, g: 0, b: 255, a: 255)

    /// Red on the left, blue on the right, 2 × 1.
    private var redThenBlue: Image {
        var pixels = PixelBuffer(width: 2, height: 1, fill: red)
        pixels.bytes[4...7] = [0, 0, 255, 255]
        return Image(pixels: pixels)
    }

    private func transform(_ path: String) throws -> Image {
        let transformer = ProcessingTransformer(options: try ThumborURLParser().parse("/unsafe/\(path)/h/x.png").options)
        let image = try XCTUnwrap(transformer.transform(redThenBlue, forKey: ""))
        XCTAssertEqual(transformer.outputSize(for: redThenBlue), PixelSize(width: image.pixelWidth, height: image.pixelHeight), path)
        return image
    }

    func testFlipsAndCounterClockwiseTurnsComeAfterTheResize() throws {
        let flipped = try transform("-4x2")
        XCTAssertEqual([flipped.pixelWidth, flipped.pixelHeight], [4, 2])
        XCTAssertEqual(flipped.pixels[0, 0], blue)
        XCTAssertEqual(flipped.pixels[3, 1], red)
        let turned = try transform("fit-in/2x1/filters:rotate(90)")
        XCTAssertEqual([turned.pixelWidth, turned.pixelHeight], [1, 2])
        XCTAssertEqual(turned.pixels[0, 0], blue, "a counter-clockwise turn brings the right side up")
        XCTAssertEqual(turned.pixels[0, 1], red)
        let flippedThenTurned = try transform("fit-in/-2x1/filters:rotate(90)")
        XCTAssertEqual(flippedThenTurned.pixels[0, 0], red)
        XCTAssertEqual(try transform("fit-in/2x1/filters:rotate(-90):rotate(180)").pixels, turned.pixels)
    }

    func testFillPadsTheFitInBoxCentredAndGreyLeavesItsColour() throws {
        let padded = try transform("fit-in/4x3/filters:fill(red):grayscale()")
        XCTAssertEqual([padded.pixelWidth, padded.pixelHeight], [4, 3])
        XCTAssertEqual(padded.pixels[0, 0], red)
        XCTAssertEqual(padded.pixels[1, 1], RGBA(r: 76, g: 76, b: 76, a: 255), "red's luma")
        XCTAssertEqual(padded.pixels[2, 1], RGBA(r: 29, g: 29, b: 29, a: 255), "blue's luma")
        let transparent = try transform("fit-in/4x3/filters:fill(transparent)")
        XCTAssertEqual(transparent.pixels[0, 0], .clear)
    }
}
