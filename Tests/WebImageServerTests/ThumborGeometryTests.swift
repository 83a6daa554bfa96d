@testable import WebImageServer
import WebImage
import XCTest

/// thumbor's `fit-in` variants and `orig` sides, as the sizes ``ResizePlan`` gives, checked
/// against thumbor's `FIT_IN_CROP_DATA` (tests/fixtures/transformer_test_data.py, run by
/// tests/test_transformer.py `test_can_fit_in`) and `CROP_DATA`'s `orig` rows.
final class ThumborGeometryTests: XCTestCase {
    private func canvas(_ path: String, source: (Int, Int)) throws -> PixelSize {
        let options = try ThumborURLParser().parse("/unsafe/\(path)/h/x.jpg").options
        return ResizePlan(options: options, source: PixelSize(width: source.0, height: source.1)).canvas
    }

    private func size(_ width: Int, _ height: Int) -> PixelSize { PixelSize(width: width, height: height) }

    func testFitInVariantsMatchThumborsFitInCropData() throws {
        let cases: [(String, (Int, Int), PixelSize)] = [
            ("fit-in/400x100", (800, 400), size(200, 100)),
            ("fit-in/500x200", (1000, 250), size(500, 125)),
            ("fit-in/500x400", (200, 250), size(200, 250)),  // should_resize False: no enlargement
            ("adaptive-fit-in/100x400", (800, 400), size(200, 100)),
            ("full-fit-in/400x100", (800, 400), size(400, 200)),
            ("full-fit-in/500x400", (200, 250), size(500, 625)),
            ("adaptive-full-fit-in/100x400", (800, 400), size(400, 200)),
            ("fit-in/250xorig", (500, 500), size(250, 250)),
            ("fit-in/origx250", (500, 500), size(250, 250)),
            ("fit-in/origxorig", (500, 500), size(500, 500)),
        ]
        for (path, source, expected) in cases {
            XCTAssertEqual(try canvas(path, source: source), expected, path)
        }
    }

    func testOrigSidesWithoutFitInCropToTheSourceSide() throws {
        // CROP_DATA: 800×400 to 400×orig keeps the middle 400×400 (crop 200…600, 0…400).
        XCTAssertEqual(try canvas("400xorig", source: (800, 400)), size(400, 400))
        XCTAssertEqual(try canvas("origxorig", source: (800, 400)), size(800, 400))
        XCTAssertEqual(try canvas("origx100", source: (800, 400)), size(800, 100))
    }

    func testAdaptiveSwapsOnlyWhenOrientationsDiffer() throws {
        XCTAssertEqual(try canvas("adaptive-fit-in/400x100", source: (800, 400)), size(200, 100))
        XCTAssertEqual(try canvas("adaptive-fit-in/100x400", source: (400, 800)), size(100, 200))
        XCTAssertEqual(try canvas("adaptive-fit-in/100x400", source: (500, 500)), size(100, 100))
    }

    func testTheNewGeometryChangesTheCacheKey() throws {
        let parser = ThumborURLParser()
        let keys = try ["fit-in/100x100", "full-fit-in/100x100", "adaptive-fit-in/100x100", "adaptive-full-fit-in/100x100",
                        "100x100", "origx100", "100xorig", "trim/100x100", "trim:10/100x100"].map {
            try parser.parse("/unsafe/\($0)/h/x.jpg").cacheKey
        }
        XCTAssertEqual(Set(keys).count, keys.count)
    }
}
