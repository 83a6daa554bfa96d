import XCTest
import WebImage

final class AverageColorTests: XCTestCase {
    /// Within 1 of numpy's mean of each channel, over all pixels and over the visible ones.
    func testMatchesNumpyMean() throws {
        for image in try References.images() {
            let pixels = try References.full(image)
            let all = try XCTUnwrap(AverageColor.of(pixels, ignoringTransparent: false))
            let visible = AverageColor.of(pixels)
            for (ours, reference) in zip([all.r, all.g, all.b, all.a], image.mean) {
                XCTAssertEqual(Double(ours), reference, accuracy: 1, image.name)
            }
            if let meanVisible = image.meanVisible {
                let visible = try XCTUnwrap(visible)
                for (ours, reference) in zip([visible.r, visible.g, visible.b, visible.a], meanVisible) {
                    XCTAssertEqual(Double(ours), reference, accuracy: 1, image.name)
                }
            } else {
                XCTAssertNil(visible, image.name)
            }
        }
    }

    /// Transparent pixels are skipped whatever RGB they store; the others count alike.
    func testIgnoresOnlyFullyTransparentPixels() {
        let pixels = References.bands(width: 2, [
            (RGBA(r: 255, g: 255, b: 255, a: 0), 3), (RGBA(r: 200, g: 100, b: 0, a: 255), 1), (RGBA(r: 100, g: 0, b: 50, a: 1), 1),
        ])
        XCTAssertEqual(AverageColor.of(pixels), RGBA(r: 150, g: 50, b: 25, a: 128))
        XCTAssertEqual(AverageColor.of(pixels, ignoringTransparent: false), RGBA(r: 213, g: 173, b: 163, a: 51))
    }

    func testEmptySinglePixelAndTransparentImages() {
        XCTAssertNil(AverageColor.of(PixelBuffer(width: 0, height: 0)))
        XCTAssertNil(AverageColor.of(PixelBuffer(width: 0, height: 0), ignoringTransparent: false))
        XCTAssertEqual(AverageColor.of(PixelBuffer(width: 1, height: 1, fill: RGBA(r: 1, g: 2, b: 3, a: 4))), RGBA(r: 1, g: 2, b: 3, a: 4))
        XCTAssertNil(AverageColor.of(PixelBuffer(width: 3, height: 3)))
        XCTAssertEqual(AverageColor.of(PixelBuffer(width: 3, height: 3), ignoringTransparent: false), .clear)
    }
}
