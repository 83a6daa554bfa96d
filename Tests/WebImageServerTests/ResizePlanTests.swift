@testable import WebImageServer
import WebImage
import XCTest

/// imgproxy's sizing rules, as sizes: fit, fill, fill-down, force, auto, enlarge, extend, dpr.
final class ResizePlanTests: XCTestCase {
    private func plan(_ path: String, source: (Int, Int)) throws -> ResizePlan {
        let options = try ProcessingURLParser().parse("/s/\(path)/plain/http://h/x").options
        return ResizePlan(options: options, source: PixelSize(width: source.0, height: source.1))
    }

    private func size(_ width: Int, _ height: Int) -> PixelSize { PixelSize(width: width, height: height) }

    func testFitKeepsTheAspectRatioInsideTheBox() throws {
        let fit = try plan("rs:fit:100:100", source: (400, 200))
        XCTAssertEqual(fit.scaled, size(100, 50))
        XCTAssertEqual(fit.canvas, size(100, 50))
        XCTAssertEqual(try plan("w:100", source: (400, 200)).canvas, size(100, 50))
        XCTAssertEqual(try plan("h:100", source: (400, 200)).canvas, size(200, 100))
        XCTAssertEqual(try plan("w:0", source: (400, 200)).canvas, size(400, 200))
    }

    func testFillCoversThenCrops() throws {
        let fill = try plan("rs:fill:100:100", source: (400, 200))
        XCTAssertEqual(fill.scaled, size(200, 100))
        XCTAssertEqual(fill.cropped, size(100, 100))
    }

    func testNoEnlargementUnlessAsked() throws {
        XCTAssertEqual(try plan("rs:fit:800:800", source: (400, 200)).canvas, size(400, 200))
        XCTAssertEqual(try plan("rs:fit:800:800:1", source: (400, 200)).canvas, size(800, 400))
        // fill without enlarge: the crop box is clipped to the unscaled image.
        XCTAssertEqual(try plan("rs:fill:300:300", source: (400, 200)).cropped, size(300, 200))
        // fill-down keeps the requested aspect ratio instead.
        XCTAssertEqual(try plan("rs:fill-down:300:300", source: (400, 200)).cropped, size(200, 200))
        XCTAssertEqual(try plan("rs:fill-down:600:300", source: (400, 200)).cropped, size(400, 200))
    }

    func testForceAndAuto() throws {
        XCTAssertEqual(try plan("rs:force:100:100", source: (400, 200)).canvas, size(100, 100))
        // Both landscape: fill; a portrait box for a landscape source: fit.
        XCTAssertEqual(try plan("rs:auto:100:50", source: (400, 100)).canvas, size(100, 50))
        XCTAssertEqual(try plan("rs:auto:50:100", source: (400, 100)).canvas, size(50, 13))
    }

    func testExtendAndDevicePixelRatio() throws {
        XCTAssertEqual(try plan("rs:fit:100:100:0:1", source: (400, 200)).canvas, size(100, 100))
        XCTAssertEqual(try plan("rs:fit:100:100:0:1", source: (40, 20)).canvas, size(100, 100))
        XCTAssertEqual(try plan("rs:fit:50:50/dpr:2", source: (400, 200)).canvas, size(100, 50))
    }

    func testGravityPlacesCropsAndClampsOffsets() {
        let inner = size(10, 10), outer = size(100, 50)
        // imgproxy centres (spare + 1) / 2 rounded half to even: 45.5 → 46, 20.5 → 20.
        XCTAssertTrue(Gravity.centre.origin(of: inner, in: outer) == (46, 20))
        XCTAssertTrue(Gravity(kind: .northWest).origin(of: inner, in: outer) == (0, 0))
        XCTAssertTrue(Gravity(kind: .southEast, x: 5, y: 5).origin(of: inner, in: outer) == (85, 35))
        XCTAssertTrue(Gravity(kind: .east).origin(of: inner, in: outer) == (90, 20))
        XCTAssertTrue(Gravity(kind: .north, x: 1000).origin(of: inner, in: outer) == (90, 0))
        XCTAssertTrue(Gravity(kind: .focusPoint, x: 0, y: 1).origin(of: inner, in: outer) == (0, 40))
    }

    func testShrinkOnLoadOnlyWhenTheOutputFitsABox() throws {
        func box(_ path: String) throws -> PixelSize? {
            ImageProcessor.decodeOptions(for: try ProcessingURLParser().parse("/s/\(path)/plain/http://h/x").options)
                .thumbnailPixelSize
        }
        XCTAssertEqual(try box("rs:fit:100:50"), size(100, 50))
        XCTAssertEqual(try box("rs:fill:100:0/dpr:2"), size(200, Int(Int32.max)))
        XCTAssertEqual(try box("rs:fit:100:50/rot:90"), size(50, 100))
        XCTAssertNil(try box("rs:fill:100:50"))
        XCTAssertNil(try box("rs:fit:100:50/c:10:10"))
        XCTAssertNil(try box("rs:fit:100:50:1"))
        XCTAssertNil(try box("q:50"))
    }
}
