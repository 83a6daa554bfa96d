import Foundation
import WebImage
import WebImageCodecs
import WebImageServer
import WebImageTestSupport
import XCTest

/// thumbor's fit-in variants, `orig` sides, `trim` and the pixel and output filters through a
/// real `webimage serve` on loopback, with numbers from thumbor's own tests where they give some.
final class ServeThumborFilterTests: ServeTestCase {
    /// test_transformer.py `test_can_fit_in` (FIT_IN_CROP_DATA) rules on the 1024 × 768 photo.
    func testFitInVariantsAndOrigSides() async throws {
        let base = try await serve(["--allow-loopback-sources"])
        let source = origin.url("/photo.jpg").absoluteString
        let cases: [(String, [Int])] = [
            ("full-fit-in/200x100", [200, 150]),         // covers the box: 1024 × 768 × 200/1024
            ("adaptive-fit-in/100x200", [133, 100]),     // a portrait box for a landscape photo swaps to 200 × 100
            ("adaptive-full-fit-in/100x200", [200, 150]),
            ("fit-in/origx300", [400, 300]),
            ("origx100", [1024, 100]),
            ("300xorig", [300, 768]),
        ]
        for (path, size) in cases {
            let (_, image) = try await fetched(base, "/unsafe/\(path)/\(source)", format: .jpeg)
            XCTAssertEqual([image.pixelWidth, image.pixelHeight], size, path)
        }
    }

    /// The arithmetic of thumbor/ext/filters/_brightness.c, _contrast.c, _rgb.c, _saturation.c and _colorize.c
    /// on a flat colour, with tests/filters' arguments (brightness(20), contrast(20), rgb(10,2,4)).
    func testColourFiltersChangeEveryPixelAsThumborDoes() async throws {
        let base = try await serve(["--allow-loopback-sources"])
        let source = try servePNG("flat.png", width: 8, height: 8, fill: RGBA(r: 100, g: 150, b: 200))
        let cases: [(String, RGBA)] = [
            ("brightness(20)", RGBA(r: 151, g: 201, b: 251)),
            ("contrast(20)", RGBA(r: 88, g: 159, b: 231)),  // 144 × (v − 128) / 100 + 128
            ("rgb(10,2,4)", RGBA(r: 125, g: 155, b: 210)),
            ("saturation(0)", RGBA(r: 144, g: 144, b: 144)),  // √(0.299 × 100² + 0.587 × 150² + 0.114 × 200²)
            ("brightness(20):rgb(-20,0,0)", RGBA(r: 100, g: 201, b: 251)),
            ("colorize(40,80,20,ff0000)", RGBA(r: 162, g: 30, b: 160)),  // (v × (100 − p) + c × p) / 100
            ("colorize(150,0,100,00ff00)", RGBA(r: 0, g: 150, b: 0)),  // past 100 it overshoots, clamped
        ]
        for (filters, expected) in cases {
            let (_, image) = try await fetched(base, "/unsafe/filters:\(filters):format(png)/\(source)", format: .png)
            XCTAssertEqual(image.pixels[3, 5], expected, filters)
        }
        let (_, noisy) = try await fetched(base, "/unsafe/filters:noise(40,123):format(png)/\(source)", format: .png)
        XCTAssertGreaterThan(Set((0..<8).map { noisy.pixels[$0, 2] }).count, 2, "noise(40) varies the pixels")
        let (_, again) = try await fetched(base, "/unsafe/filters:noise(40,124):format(png)/\(source)", format: .png)
        XCTAssertNotEqual(again.pixels.bytes, noisy.pixels.bytes)
    }

    func testEqualizeSpreadsAndTrimRemovesTheBorder() async throws {
        let base = try await serve(["--allow-loopback-sources"])
        let framed = try servePNG("framed.png", width: 40, height: 30, fill: RGBA(r: 250, g: 250, b: 250),
                                  areas: [(PixelRect(x: 10, y: 5, width: 20, height: 15), RGBA(r: 200, g: 0, b: 0))])
        let (_, trimmed) = try await fetched(base, "/unsafe/trim/filters:format(png)/\(framed)", format: .png)
        XCTAssertEqual([trimmed.pixelWidth, trimmed.pixelHeight], [20, 15])
        XCTAssertEqual(trimmed.pixels[0, 0], RGBA(r: 200, g: 0, b: 0))
        let (_, fitted) = try await fetched(base, "/unsafe/trim:top-left:10/fit-in/10x10/filters:format(png)/\(framed)", format: .png)
        XCTAssertEqual([fitted.pixelWidth, fitted.pixelHeight], [10, 8])
        let (_, fromBottomRight) = try await fetched(base, "/unsafe/trim:bottom-right/filters:format(png)/\(framed)", format: .png)
        XCTAssertEqual([fromBottomRight.pixelWidth, fromBottomRight.pixelHeight], [20, 15])

        // tests/filters/test_fill.py `test_fill_filter_with_average`: fill(auto) pads with the mean
        // colour, (900 × 250 + 300 × 200) / 1200 = 237 red, 900 × 250 / 1200 = 187 green and blue.
        let (_, padded) = try await fetched(base, "/unsafe/fit-in/80x80/filters:fill(auto):format(png)/\(framed)", format: .png)
        XCTAssertEqual([padded.pixelWidth, padded.pixelHeight], [80, 80])
        XCTAssertEqual(padded.pixels[0, 0], RGBA(r: 237, g: 187, b: 187))
        XCTAssertEqual(padded.pixels[79, 79], RGBA(r: 237, g: 187, b: 187))

        // 900 border pixels at 250 and 300 inner ones at 200 (red): equalized, 200 is the lowest red, 250 the highest.
        let (_, equalized) = try await fetched(base, "/unsafe/filters:equalize():format(png)/\(framed)", format: .png)
        XCTAssertEqual(equalized.pixels[0, 0], RGBA(r: 255, g: 255, b: 255))
        XCTAssertEqual(equalized.pixels[15, 10], RGBA(r: 0, g: 0, b: 0))
    }

    /// thumbor's `curve` through a request (red lifted to 255 by its curve, green to 0, blue
    /// through the identity, then all three through the curve of all) and `proportion`
    /// (tests/filters/test_proportion.py: the result scaled, a value over 1 ignored).
    func testCurveAndProportion() async throws {
        let base = try await serve(["--allow-loopback-sources"])
        let source = try servePNG("curved.png", width: 40, height: 20, fill: RGBA(r: 100, g: 150, b: 200))
        let curve = "curve([(0,0),(128,64),(255,255)],[(0,255),(255,255)],[(0,0),(255,0)],[(0,0),(255,255)])"
        let (_, curved) = try await fetched(base, "/unsafe/filters:\(curve):format(png)/\(source)", format: .png)
        let all = try XCTUnwrap(ToneCurve([ToneCurve.Point(0, 0), ToneCurve.Point(128, 64), ToneCurve.Point(255, 255)])).table
        XCTAssertEqual(curved.pixels[5, 5], RGBA(r: all[255], g: all[0], b: all[200]))
        let (_, scaled) = try await fetched(base, "/unsafe/filters:proportion(0.5):format(png)/\(source)", format: .png)
        XCTAssertEqual([scaled.pixelWidth, scaled.pixelHeight], [20, 10])
        let (_, resized) = try await fetched(base, "/unsafe/30x10/filters:proportion(0.5):format(png)/\(source)", format: .png)
        XCTAssertEqual([resized.pixelWidth, resized.pixelHeight], [15, 5])
        let (_, ignored) = try await fetched(base, "/unsafe/filters:proportion(10000):format(png)/\(source)", format: .png)
        XCTAssertEqual([ignored.pixelWidth, ignored.pixelHeight], [40, 20])
    }

    /// tests/filters/test_max_age.py `test_max_age_url` (`max-age=30,public`) and test_format.py
    /// `test_invalid_format_should_be_null` (the source's format).
    func testOutputFilters() async throws {
        let base = try await serve(["--allow-loopback-sources"])
        let source = origin.url("/photo.jpg").absoluteString
        let (aged, _) = try await fetched(base, "/unsafe/fit-in/50x50/filters:max_age(30)/\(source)", format: .jpeg)
        XCTAssertEqual(aged.cacheControl, "max-age=30,public")
        let (plain, plainImage) = try await fetched(base, "/unsafe/fit-in/200x200/\(source)", format: .jpeg)
        XCTAssertNotEqual(plain.cacheControl, "max-age=30,public")
        let (_, invalid) = try await fetched(base, "/unsafe/fit-in/200x200/filters:format(invalid)/\(source)", format: .jpeg)
        XCTAssertEqual(invalid.pixelWidth, 200)
        let (small, _) = try await fetched(base, "/unsafe/fit-in/200x200/filters:max_bytes(4000)/\(source)", format: .jpeg)
        XCTAssertLessThanOrEqual(small.bytes, 4000)
        XCTAssertGreaterThan(plain.bytes, 4000)
        let (_, sharpened) = try await fetched(base, "/unsafe/fit-in/200x200/filters:sharpen(2,1.5,true)/\(source)", format: .jpeg)
        XCTAssertNotEqual(sharpened.pixels.bytes, plainImage.pixels.bytes)
        let (_, rounded) = try await fetched(base, "/unsafe/fit-in/200x200/filters:round_corner(30,255,0,0)/\(source)", format: .jpeg)
        XCTAssertTrue(near(rounded.pixels[0, 0], RGBA(r: 255, g: 0, b: 0)), "\(rounded.pixels[0, 0])")
        XCTAssertTrue(near(rounded.pixels[100, 75], plainImage.pixels[100, 75]), "the middle is the photo")
        XCTAssertFalse(near(plainImage.pixels[0, 0], RGBA(r: 255, g: 0, b: 0)), "the photo's corner is not red")
        let (_, clear) = try await fetched(base, "/unsafe/fit-in/200x200/filters:round_corner(30,255,0,0,true):format(png)/\(source)",
                                           format: .png)
        XCTAssertEqual(clear.pixels[199, 149].a, 0)
        XCTAssertEqual(clear.pixels[100, 75].a, 255)
        let (_, stripped) = try await fetched(base, "/unsafe/fit-in/200x200/filters:strip_icc()/\(source)", format: .jpeg)
        XCTAssertEqual(stripped.pixelWidth, 200)
    }
}
