import Foundation
import WebImage
import WebImageServer
import XCTest

/// thumbor's URL form read into the options an imgproxy URL would give, and the typed errors
/// for what is malformed or not implemented.
final class ThumborURLParserTests: XCTestCase {
    private let parser = ThumborURLParser()

    func testFitInIsImgproxysFitAndSharesItsCacheKey() throws {
        let url = try parser.parse("/unsafe/fit-in/300x200/http://example.com/images/cat.jpg?ignored=1")
        XCTAssertEqual(url.signature, "unsafe")
        XCTAssertEqual(url.signedPath, "/fit-in/300x200/http://example.com/images/cat.jpg")
        XCTAssertEqual(url.source.absoluteString, "http://example.com/images/cat.jpg")
        XCTAssertEqual(url.options.resizingType, .fit)
        XCTAssertEqual([url.options.width, url.options.height], [300, 200])
        XCTAssertFalse(url.options.enlarge)
        let imgproxy = try ProcessingURLParser().parse("/insecure/rs:fit:300:200/plain/http://example.com/images/cat.jpg")
        XCTAssertEqual(url.cacheKey, imgproxy.cacheKey)
    }

    func testPlainSizeCropsWhereTheAlignmentSaysAndEnlarges() throws {
        let url = try parser.parse("/unsafe/300x200/left/top/example.com/a.jpg")
        XCTAssertEqual(url.source.absoluteString, "http://example.com/a.jpg")
        XCTAssertEqual(url.options.resizingType, .fill)
        XCTAssertTrue(url.options.enlarge)
        XCTAssertEqual(url.options.gravity, Gravity(kind: .northWest))
        let cases: [(String, GravityKind)] = [
            ("right", .east), ("bottom", .south), ("center/middle", .centre), ("right/bottom", .southEast), ("top", .north),
        ]
        for (alignment, kind) in cases {
            XCTAssertEqual(try parser.parse("/unsafe/10x10/\(alignment)/h/x.jpg").options.gravity.kind, kind, alignment)
        }
    }

    func testSmartTakesTheSmartGravityOverTheAlignment() throws {
        let url = try parser.parse("/unsafe/300x200/left/top/smart/example.com/a.jpg")
        XCTAssertEqual(url.options.gravity, Gravity(kind: .smart))
        let imgproxy = try ProcessingURLParser().parse("/insecure/rs:fill:300:200:1/g:sm/plain/http://example.com/a.jpg")
        XCTAssertEqual(url.cacheKey, imgproxy.cacheKey)
        XCTAssertEqual(try parser.parse("/unsafe/300x200/smart/h/x.jpg").options.gravity.kind, .smart)
    }

    func testZeroSidesKeepTheAspectAndMinusSignsFlip() throws {
        let tall = try parser.parse("/unsafe/0x100/h/x.jpg").options
        XCTAssertEqual([tall.width, tall.height], [0, 100])
        XCTAssertEqual(tall.postResizeOrientation, .up)
        XCTAssertEqual(try parser.parse("/unsafe/-300x0/h/x.jpg").options.postResizeOrientation, .upMirrored)
        XCTAssertEqual(try parser.parse("/unsafe/x-/h/x.jpg").options.postResizeOrientation, .downMirrored)
        XCTAssertEqual(try parser.parse("/unsafe/-10x-10/h/x.jpg").options.postResizeOrientation, .down)
        let none = try parser.parse("/unsafe/h/x.jpg").options
        XCTAssertEqual([none.width, none.height], [0, 0])
    }

    func testManualCropIsARectangleFromTheTopLeft() throws {
        let url = try parser.parse("/unsafe/10x20:410x320/fit-in/200x0/h/x.jpg")
        XCTAssertEqual(url.options.crop, ProcessingCrop(width: 400, height: 300, gravity: Gravity(kind: .northWest, x: 10, y: 20)))
        XCTAssertNil(try parser.parse("/unsafe/10x10:5x40/h/x.jpg").options.crop, "an empty rectangle is no crop, as in thumbor")
        // Not of the crop's shape, so the image URL starts there, and it has no valid host.
        XCTAssertThrowsError(try parser.parse("/unsafe/1:2x3x4/h/x.jpg"))
    }

    func testFiltersMapToOptionsInOrder() throws {
        let options = try parser.parse(
            "/unsafe/fit-in/300x200/filters:quality(85):format(webp):fill(red):blur(3):rotate(90):grayscale():strip_exif()/h/x.jpg").options
        XCTAssertEqual(options.quality, 85)
        XCTAssertEqual(options.format, .webp)
        XCTAssertEqual(options.background, RGBA(r: 255, g: 0, b: 0, a: 255))
        XCTAssertTrue(options.extend, "fill pads a fit-in image to the box")
        XCTAssertEqual(options.blurSigma, 3)
        XCTAssertEqual(options.postResizeOrientation, .left, "thumbor turns counter-clockwise")
        XCTAssertTrue(options.grayscale)
        let flipped = try parser.parse("/unsafe/-30x20/filters:rotate(90):blur(4, 1.5):fill(0a0)/h/x.jpg").options
        XCTAssertEqual(flipped.postResizeOrientation, .leftMirrored)
        XCTAssertEqual(flipped.blurSigma, 1.5)
        XCTAssertFalse(flipped.extend, "without fit-in the image already has the box's size")
        XCTAssertEqual(flipped.background, RGBA(r: 0, g: 0xAA, b: 0, a: 255))
        XCTAssertEqual(try parser.parse("/unsafe/fit-in/9x9/filters:upscale()/h/x.jpg").options.enlarge, true)
        XCTAssertEqual(try parser.parse("/unsafe/9x9/filters:no_upscale()/h/x.jpg").options.enlarge, false)
        XCTAssertEqual(try parser.parse("/unsafe/9x9/filters:stretch()/h/x.jpg").options.resizingType, .force)
        XCTAssertNil(try parser.parse("/unsafe/fit-in/9x9/filters:fill(transparent)/h/x.jpg").options.background)
        let auto = try parser.parse("/unsafe/fit-in/9x9/filters:fill(auto)/h/x.jpg")
        XCTAssertTrue(auto.options.backgroundIsAverage)
        XCTAssertTrue(auto.options.extend)
        XCTAssertNotEqual(auto.cacheKey, try parser.parse("/unsafe/fit-in/9x9/filters:fill(transparent)/h/x.jpg").cacheKey)
    }

    /// thumbor's `curve` with its documentation's example (brackets and parentheses inside the
    /// arguments) and `proportion` (tests/filters/test_proportion.py: values outside (0, 1]
    /// are ignored).
    func testCurveAndProportionFilters() throws {
        let curve = "curve([(0,0),(255,255)],[(0,50),(16,51),(32,69)],[(0,0),(16,2)],[(0,48),(16,50)])"
        let options = try parser.parse("/unsafe/filters:\(curve):proportion(0.6)/h/x.jpg").options
        guard case let .curves(all, red, _, blue)? = options.colorAdjustments.first else { return XCTFail("no curve") }
        XCTAssertEqual(all.points, [ToneCurve.Point(0, 0), ToneCurve.Point(255, 255)])
        XCTAssertEqual(red.points.count, 3)
        XCTAssertEqual(blue.points, [ToneCurve.Point(0, 48), ToneCurve.Point(16, 50)])
        XCTAssertEqual(options.resultProportion, 0.6)
        for ignored in ["proportion(1.0)", "proportion(10000)", "proportion(0)", "proportion(-0.5)"] {
            XCTAssertEqual(try parser.parse("/unsafe/filters:\(ignored)/h/x.jpg").options.resultProportion, 1, ignored)
        }
        XCTAssertNotEqual(try parser.parse("/unsafe/filters:\(curve)/h/x.jpg").cacheKey, try parser.parse("/unsafe/h/x.jpg").cacheKey)
        for bad in ["curve([(0,0)],[(0,0)],[(0,0)])", "curve([(0,0),(0,5)],[(0,0)],[(0,0)],[(0,0)])", "curve([],[(0,0)],[(0,0)],[(0,0)])",
                    "curve([(0,300)],[(0,0)],[(0,0)],[(0,0)])", "curve([(0,0);(1,1)],[(0,0)],[(0,0)],[(0,0)])",
                    "curve([(0,0)],[(0,0)],[(0,0)],[(0,0)]", "curve([(0,0)),[(0,0)],[(0,0)],[(0,0)])"] {
            XCTAssertThrowsError(try parser.parse("/unsafe/filters:\(bad)/h/x.jpg"), bad)
        }
    }

    /// Arguments as thumbor's filter tests write them (tests/filters/test_brightness.py
    /// `brightness(20)`, test_contrast.py `contrast(20)`, test_rgb.py `rgb(10,2,4)`,
    /// test_saturation.py `saturation(10)`, test_noise.py `noise(200,123)`, test_format.py
    /// `test_invalid_format_should_be_null`), plus negative values and thumbor/filters/sharpen.py's
    /// three arguments.
    func testPixelAndOutputFiltersMapInOrder() throws {
        let options = try parser.parse("/unsafe/filters:brightness(20):contrast(-20):rgb(10,2,-4):saturation(10)"
            + ":noise(200,123):equalize():sharpen(2,1.5,true):strip_icc():max_bytes(5000):format(invalid)/h/x.jpg").options
        XCTAssertEqual(options.colorAdjustments, [
            .brightness(percent: 20), .contrast(percent: -20), .channels(red: 10, green: 2, blue: -4),
            .saturation(factor: 10), .noise(amount: 200, seed: 123), .equalize,
        ])
        XCTAssertEqual(options.sharpenSigma, 1.5)
        XCTAssertTrue(options.stripColorProfile)
        XCTAssertEqual(options.maxBytes, 5000)
        XCTAssertNil(options.format, "thumbor ignores a format it does not know")
        XCTAssertEqual(try parser.parse("/unsafe/filters:format(png):format(invalid)/h/x.jpg").options.format, nil)
        let plain = try parser.parse("/unsafe/h/x.jpg").cacheKey
        for filter in ["brightness(20)", "contrast(20)", "rgb(1,0,0)", "saturation(0.5)", "noise(10)", "equalize()", "sharpen(1,1,false)",
                       "max_bytes(1000)"] {
            XCTAssertNotEqual(try parser.parse("/unsafe/filters:\(filter)/h/x.jpg").cacheKey, plain, filter)
        }
        for path in ["/unsafe/filters:brightness(x)/h/x.jpg", "/unsafe/filters:rgb(1,2)/h/x.jpg", "/unsafe/filters:noise(-1)/h/x.jpg",
                     "/unsafe/filters:sharpen(1,1)/h/x.jpg", "/unsafe/filters:equalize(1)/h/x.jpg", "/unsafe/trim:top-left:999/h/x.jpg",
                     "/unsafe/filters:saturation(1e400)/h/x.jpg"] {
            XCTAssertThrowsError(try parser.parse(path), path)
        }
    }

    /// tests/filters/test_round_corner.py's `round_corner(50,255,0,0)` and `round_corner(50|75,255,0,0)`.
    func testRoundCornerTakesOneOrTwoRadiiAndAColour() throws {
        let options = try parser.parse("/unsafe/filters:round_corner(50,255,0,0)/h/x.jpg").options
        XCTAssertEqual(options.cornerRadius, 50)
        XCTAssertEqual(options.cornerFill, RGBA(r: 255, g: 0, b: 0))
        let clear = try parser.parse("/unsafe/filters:round_corner(50|50,0,0,255,true)/h/x.jpg").options
        XCTAssertEqual(clear.cornerRadius, 50)
        XCTAssertNil(clear.cornerFill)
        XCTAssertNotEqual(try parser.parse("/unsafe/filters:round_corner(50,0,0,255,true)/h/x.jpg").cacheKey,
                          try parser.parse("/unsafe/filters:round_corner(50,0,0,255)/h/x.jpg").cacheKey)
        let elliptical = try parser.parse("/unsafe/filters:round_corner(50|75,255,0,0)/h/x.jpg")
        XCTAssertEqual(elliptical.options.cornerRadius, 50)
        XCTAssertEqual(elliptical.options.cornerVerticalRadius, 75)
        XCTAssertNotEqual(elliptical.cacheKey, try parser.parse("/unsafe/filters:round_corner(50,255,0,0)/h/x.jpg").cacheKey)
        XCTAssertNil(clear.cornerVerticalRadius, "a|a is circular")
        for path in ["/unsafe/filters:round_corner(50|75|9,255,0,0)/h/x.jpg", "/unsafe/filters:round_corner(50,256,0,0)/h/x.jpg",
                     "/unsafe/filters:round_corner(50,1,2)/h/x.jpg", "/unsafe/filters:round_corner(a,1,2,3)/h/x.jpg"] {
            XCTAssertThrowsError(try parser.parse(path), path)
        }
    }

    func testTrimReadsThumborsForms() throws {
        XCTAssertEqual(try parser.parse("/unsafe/trim/h/x.jpg").options.trim, ProcessingTrim(threshold: 1))
        XCTAssertEqual(try parser.parse("/unsafe/trim:top-left/h/x.jpg").options.trim, ProcessingTrim(threshold: 1))
        XCTAssertEqual(try parser.parse("/unsafe/trim:top-left:50/fit-in/10x10/h/x.jpg").options.trim, ProcessingTrim(threshold: 51))
        XCTAssertEqual(try parser.parse("/unsafe/trim:20/h/x.jpg").options.trim, ProcessingTrim(threshold: 21))
        XCTAssertNil(try parser.parse("/unsafe/10x10/h/x.jpg").options.trim)
    }

    func testTheFilterListEndsAtTheFirstClosingParenthesisAndSlash() throws {
        let url = try parser.parse("/unsafe/filters:format(png)/https://example.com/a(1)/b.jpg")
        XCTAssertEqual(url.options.format, .png)
        XCTAssertEqual(url.source.absoluteString, "https://example.com/a(1)/b.jpg")
    }

    func testPercentEncodedImageURLs() throws {
        let url = try parser.parse("/unsafe/fit-in/10x10/https%3A%2F%2Fexample.com%2Fa%20b.jpg")
        XCTAssertEqual(url.source.host, "example.com")
        XCTAssertEqual(try parser.parse("/unsafe/local:///cat.jpg").source.absoluteString, "local:///cat.jpg")
    }

    /// thumbor's `watermark` filter: the mark's URL read as an image URL is, the positions and
    /// ratios as thumbor's filter reads them, and every argument in the cache key.
    func testWatermarkFilterArguments() throws {
        let url = try parser.parse("/unsafe/filters:watermark(example.com/wm.png,-10p,center,30,50,none):watermark(local:///m.png,repeat,-0,0)/h/x.jpg")
        XCTAssertEqual(url.options.thumborOverlays, [
            .watermark(ThumborWatermark(url: URL(string: "http://example.com/wm.png")!, x: .percent(10, fromEnd: true), y: .center,
                                        transparency: 30, widthRatio: 0.5)),
            .watermark(ThumborWatermark(url: URL(string: "local:///m.png")!, x: .repeat, y: .pixels(0, fromEnd: true), transparency: 0)),
        ])
        let keys = try ["watermark(h/a.png,1,0,0)", "watermark(h/a.png,-1,0,0)", "watermark(h/a.png,0,0,0)",
                        "watermark(h/a.png,-0,0,0)", "watermark(h/b.png,0,0,0)", "watermark(h/a.png,0,0,0,10,none)",
                        "watermark(h/a.png,0,0,0,none,10)", "watermark(h/a.png,1p,0,0)", "quality(80)"].map {
            try parser.parse("/unsafe/filters:\($0)/h/x.jpg").cacheKey
        }
        XCTAssertEqual(Set(keys).count, keys.count, "each watermark has a key of its own")
    }

    func testUnsupportedFiltersAndPartsAreNamed() {
        let cases: [(String, ProcessingURLError)] = [
            ("/unsafe/filters:sepia(80)/h/x.jpg", .unsupportedFilter("sepia")),
            ("/unsafe/debug/h/x.jpg", .unsupportedPart("debug")),
        ]
        for (path, expected) in cases {
            XCTAssertThrowsError(try parser.parse(path), path) { XCTAssertEqual($0 as? ProcessingURLError, expected, path) }
        }
    }

    /// tests/filters/test_blur.py `test_blur_filter_with_zero_radius` and `_with_max_radius`,
    /// test_rotate.py `test_rotate_filter_with_invalid_value` and
    /// `test_disallows_invalid_context_should_be_none`: arguments thumbor takes without effect or
    /// bounds are read the same way.
    func testFilterArgumentsThumborIgnoresOrBounds() throws {
        let plain = try parser.parse("/unsafe/h/x.jpg")
        for ignored in ["blur(0)", "rotate(181)", "rotate(91)"] {
            let url = try parser.parse("/unsafe/filters:\(ignored)/h/x.jpg")
            XCTAssertEqual(url.cacheKey, plain.cacheKey, ignored)
        }
        XCTAssertEqual(try parser.parse("/unsafe/filters:blur(500)/h/x.jpg").options.blurSigma, parser.limits.maxBlurSigma)
        XCTAssertEqual(try parser.parse("/unsafe/filters:blur(4,2)/h/x.jpg").options.blurSigma, 2)
        XCTAssertEqual(try parser.parse("/unsafe/filters:rotate(540)/h/x.jpg").cacheKey, try parser.parse("/unsafe/filters:rotate(180)/h/x.jpg").cacheKey)
    }

    func testMalformedURLsAreClientErrors() {
        let paths = [
            "", "/", "/unsafe", "/unsafe/", "/unsafe/fit-in/", "/unsafe/filters:quality(80)", "/unsafe/filters:quality(80/h/x.jpg",
            "/unsafe/filters:quality(101)/h/x.jpg", "/unsafe/99999x1/h/x.jpg",
            "/unsafe/filters:fill(notacolour)/h/x.jpg", "/unsafe/filters:blur(-1)/h/x.jpg", "/unsafe/filters:grayscale(1)/h/x.jpg",
            "/unsafe/filters:quality(80)x/h/x.jpg", "/unsafe/filters:(80)/h/x.jpg", "/unsafe/10x10/ftp://h/x.jpg",
            "/unsafe/10x10/http:///x.jpg", "/unsafe/%ZZ", "/unsafe/0x0:99999999x99999999/h/x.jpg",
            "/unsafe/filters:" + String(repeating: "upscale():", count: 100) + "/h/x.jpg",
        ]
        for path in paths {
            XCTAssertThrowsError(try parser.parse(path), path)
        }
        for path in ["/unsafe/10x10/http://1.2.3.4:99999/x.jpg", "/unsafe/1.2.3.4:99999/x.jpg", "/unsafe/http%3A%2F%2Fh%3A70000%2Fx.jpg"] {
            XCTAssertThrowsError(try parser.parse(path), path) {
                guard case .invalidSource(let why)? = $0 as? ProcessingURLError else { return XCTFail("\(path): \($0)") }
                XCTAssertTrue(why.hasSuffix("outside 1…65535"), why)
            }
        }
        XCTAssertThrowsError(try parser.parse("/unsafe/" + String(repeating: "a", count: 9000))) {
            XCTAssertEqual($0 as? ProcessingURLError, .pathTooLong(length: 9008, limit: 8192))
        }
    }
}
