import XCTest
import WebImage

final class DominantColorsTests: XCTestCase {
    private let red = RGBA(r: 255, g: 0, b: 0)            // s 1, l 0.5
    private let pastelPink = RGBA(r: 255, g: 182, b: 193) // s 1, l 0.86
    private let navy = RGBA(r: 0, g: 0, b: 128)           // s 1, l 0.25
    private let grey = RGBA(r: 128, g: 128, b: 128)       // s 0, l 0.5
    private let greige = RGBA(r: 200, g: 190, b: 185)     // s 0.11, l 0.75
    private let umber = RGBA(r: 60, g: 55, b: 50)         // s 0.09, l 0.22

    /// Quadrants of saturated red, light pastel, dark navy and grey: each the swatch of its
    /// lightness and saturation, and no light or dark muted colour.
    func testQuadrantsOfKnownColours() {
        var pixels = PixelBuffer(width: 40, height: 40)
        for y in 0..<40 {
            for x in 0..<40 { pixels[x, y] = y < 20 ? (x < 20 ? red : pastelPink) : (x < 20 ? navy : grey) }
        }
        let colours = DominantColors(pixels)
        XCTAssertEqual(colours.vibrant, red)
        XCTAssertEqual(colours.lightVibrant, pastelPink)
        XCTAssertEqual(colours.darkVibrant, navy)
        XCTAssertEqual(colours.muted, grey)
        XCTAssertNil(colours.lightMuted)
        XCTAssertNil(colours.darkMuted)
    }

    /// Six colours, one for each swatch, in bands of different sizes.
    func testEverySwatch() {
        let pixels = References.bands(width: 8, [(red, 9), (pastelPink, 8), (navy, 7), (grey, 6), (greige, 5), (umber, 4)])
        let colours = DominantColors(pixels)
        XCTAssertEqual(colours, DominantColors(pixels, buildMissing: true), "nothing is missing")
        XCTAssertEqual(colours.vibrant, red)
        XCTAssertEqual(colours.lightVibrant, pastelPink)
        XCTAssertEqual(colours.darkVibrant, navy)
        XCTAssertEqual(colours.muted, grey)
        XCTAssertEqual(colours.lightMuted, greige)
        XCTAssertEqual(colours.darkMuted, umber)
    }

    /// Where two colours fit one swatch, the closer to its targets wins over the more populous
    /// (population weighs 0.5 of 10): a pure red beats more pixels of a duller, darker red.
    func testScoringPrefersTheTargetsOverPopulation() {
        let dullRed = RGBA(r: 180, g: 60, b: 60) // s 0.5, l 0.47
        let colours = DominantColors(References.bands(width: 10, [(dullRed, 30), (red, 10)]))
        XCTAssertEqual(colours.vibrant, red)
        XCTAssertNil(colours.muted)
    }

    /// Only red: with `buildMissing`, the other vibrant swatches are red at lightness 0.26 and
    /// 0.74, and the muted ones those three (as rounded to bytes) at saturation 0.3.
    func testBuildsMissingSwatchesInHSL() {
        let pixels = PixelBuffer(width: 6, height: 6, fill: red)
        XCTAssertEqual(DominantColors(pixels), DominantColors(pixels, buildMissing: false))
        XCTAssertNil(DominantColors(pixels).darkVibrant)
        let colours = DominantColors(pixels, buildMissing: true)
        XCTAssertEqual(colours.vibrant, red)
        XCTAssertEqual(colours.darkVibrant, RGBA(r: 133, g: 0, b: 0))
        XCTAssertEqual(colours.lightVibrant, RGBA(r: 255, g: 122, b: 122))
        XCTAssertEqual(colours.muted, RGBA(r: 166, g: 89, b: 89))
        XCTAssertEqual(colours.darkMuted, RGBA(r: 86, g: 47, b: 47))
        XCTAssertEqual(colours.lightMuted, RGBA(r: 208, g: 169, b: 169))
    }

    /// Only muted colours: vibrant ones are made from them, dark from dark muted, light from
    /// light muted, then vibrant from dark vibrant.
    func testBuildsVibrantSwatchesFromMutedOnes() {
        let pixels = References.bands(width: 4, [(greige, 4), (umber, 4)])
        let colours = DominantColors(pixels, buildMissing: true)
        XCTAssertEqual(colours.darkMuted, umber)
        XCTAssertEqual(colours.lightMuted, greige)
        XCTAssertNotNil(colours.darkVibrant)
        XCTAssertNotNil(colours.lightVibrant)
        XCTAssertNotNil(colours.vibrant)
        XCTAssertNil(DominantColors(pixels).vibrant)
    }

    /// Transparent and near-white pixels are left out, the others count as opaque.
    func testSkipsTransparentAndNearWhitePixels() {
        let pixels = References.bands(width: 4, [
            (RGBA(r: 0, g: 255, b: 0, a: 124), 20), (RGBA(r: 252, g: 253, b: 251), 20), (RGBA(r: 255, g: 0, b: 0, a: 125), 2),
        ])
        let colours = DominantColors(pixels)
        XCTAssertEqual(colours.vibrant, red)
        XCTAssertNil(colours.lightMuted)
    }

    /// A photo gives some swatches, the same ones each time.
    func testPhoto() throws {
        let pixels = try References.thumbnail(try References.image("testjfif"))
        let colours = DominantColors(pixels)
        let found = [colours.vibrant, colours.lightVibrant, colours.darkVibrant, colours.muted, colours.lightMuted, colours.darkMuted]
        print("DominantColors testjfif: \(found)")
        XCTAssertGreaterThanOrEqual(found.compactMap { $0 }.count, 4)
        XCTAssertEqual(colours, DominantColors(pixels))
    }

    func testEmptySinglePixelAndTransparentImages() {
        XCTAssertEqual(DominantColors(PixelBuffer(width: 0, height: 0), buildMissing: true), DominantColors(PixelBuffer(width: 3, height: 3)))
        XCTAssertNil(DominantColors(PixelBuffer(width: 0, height: 0)).muted)
        XCTAssertNil(DominantColors(PixelBuffer(width: 3, height: 3), buildMissing: true).vibrant)
        XCTAssertEqual(DominantColors(PixelBuffer(width: 1, height: 1, fill: navy)).darkVibrant, navy)
    }
}
