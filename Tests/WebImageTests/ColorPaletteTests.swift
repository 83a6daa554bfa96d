import XCTest
import WebImage

final class ColorPaletteTests: XCTestCase {
    private let red = RGBA(r: 255, g: 0, b: 0), green = RGBA(r: 0, g: 200, b: 0)
    private let blue = RGBA(r: 0, g: 0, b: 255), halfYellow = RGBA(r: 255, g: 255, b: 0, a: 128)

    private var fourColours: PixelBuffer {
        References.bands(width: 10, [(red, 40), (green, 30), (blue, 20), (halfYellow, 10)])
    }

    /// An image of four colours gives exactly those, alpha included, most pixels first, for
    /// any maximum from 4 up.
    func testFourColourImageGivesItsColours() throws {
        for maximum in [4, 5, 16, 256] {
            XCTAssertEqual(try ColorPalette.colors(of: fourColours, maximum: maximum), [red, green, blue, halfYellow], "maximum \(maximum)")
        }
    }

    /// Fewer colours than the image has: each stands for a group, the most populous first.
    func testFewerColoursThanTheImageHas() throws {
        let two = try ColorPalette.colors(of: fourColours, maximum: 2)
        XCTAssertEqual(two.count, 2)
        XCTAssertEqual(two, try ColorPalette.colors(of: fourColours, maximum: 2), "deterministic")
    }

    /// On photos, never more than `maximum` colours, and at least as many as 16 when asked
    /// for that many (they have plenty of distinct bins); the same list on a second call.
    func testMaximumIsRespectedOnPhotos() throws {
        for name in ["testjfif", "hopper", "transparent"] {
            let pixels = try References.thumbnail(try References.image(name))
            for maximum in [2, 3, 5, 16, 64, 256] {
                let colours = try ColorPalette.colors(of: pixels, maximum: maximum)
                XCTAssertLessThanOrEqual(colours.count, maximum, "\(name) \(maximum)")
                XCTAssertGreaterThanOrEqual(colours.count, min(maximum, 16), "\(name) \(maximum)")
                XCTAssertEqual(colours, try ColorPalette.colors(of: pixels, maximum: maximum), "\(name) deterministic")
            }
        }
    }

    /// The first colour of a mostly-blue photo-like image is the blue.
    func testMostPopulousFirst() throws {
        var pixels = References.bands(width: 20, [(blue, 15), (red, 5)])
        for x in 0..<20 { pixels[x, 0] = RGBA(r: UInt8(x * 12), g: 255 - UInt8(x * 12), b: 90) }
        let colours = try ColorPalette.colors(of: pixels, maximum: 6)
        XCTAssertEqual(colours.first, blue)
        XCTAssertEqual(colours.dropFirst().first, red)
    }

    func testRejectsMaximumOutsideTwoTo256() {
        for maximum in [1, 257, 0, -3] {
            XCTAssertThrowsError(try ColorPalette.colors(of: fourColours, maximum: maximum)) { error in
                XCTAssertEqual(error as? ImageAnalysisError, .paletteSizeOutOfRange(maximum))
            }
        }
    }

    func testEmptySinglePixelAndTransparentImages() throws {
        XCTAssertThrowsError(try ColorPalette.colors(of: PixelBuffer(width: 0, height: 0), maximum: 8)) { error in
            XCTAssertEqual(error as? ImageAnalysisError, .emptyImage)
        }
        XCTAssertEqual(try ColorPalette.colors(of: PixelBuffer(width: 1, height: 1, fill: green), maximum: 8), [green])
        let clear = References.bands(width: 4, [(RGBA(r: 255, g: 9, b: 9, a: 0), 2), (RGBA(r: 1, g: 200, b: 3, a: 0), 2)])
        XCTAssertEqual(try ColorPalette.colors(of: clear, maximum: 8), [.clear])
    }
}
