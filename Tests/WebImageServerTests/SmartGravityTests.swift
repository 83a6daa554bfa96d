@testable import WebImageServer
import WebImage
import WebImageCodecs
import XCTest

/// Smart gravity (`g:sm`, `c:W:H:sm`) in the server's transformer, on the fixture photo placed
/// off centre: the crop keeps the photo where the centre would lose it.
final class SmartGravityTests: XCTestCase {
    private func transform(_ image: Image, _ optionPath: String) throws -> Image {
        let options = try ProcessingURLParser().parse("/s/\(optionPath)/plain/http://h/x").options
        return try XCTUnwrap(ProcessingTransformer(options: options).transform(image, forKey: ""))
    }

    func testFillCropKeepsThePhotoWhereTheCentreLosesIt() throws {
        let canvas = Image(pixels: try OffCentrePhoto.pixels())
        // 1024 × 384 scaled to 533 × 200: the whole photo is some 133 × 100 pixels of it.
        let whole = OffCentrePhoto.photoPixels(in: try transform(canvas, "rs:fit:533:200").pixels)
        XCTAssertGreaterThan(whole, 10_000)
        let smart = try transform(canvas, "rs:fill:200:200/g:sm").pixels
        let centre = try transform(canvas, "rs:fill:200:200/g:ce").pixels
        XCTAssertEqual([smart.width, smart.height], [200, 200])
        XCTAssertGreaterThan(OffCentrePhoto.photoPixels(in: smart), whole * 95 / 100)
        XCTAssertLessThan(OffCentrePhoto.photoPixels(in: centre), whole * 5 / 100)
    }

    func testSourceCropKeepsThePhoto() throws {
        let pixels = try OffCentrePhoto.pixels()
        let whole = OffCentrePhoto.photoPixels(in: pixels)
        // The crop's own gravity, the request's, and the crop then halved (a quarter of the pixels).
        for (path, side, share) in [("c:300:300:sm", 300, 1), ("c:300:300/g:sm", 300, 1), ("c:300:300:sm/rs:fit:150:150", 150, 4)] {
            let cropped = try transform(Image(pixels: pixels), path).pixels
            XCTAssertEqual([cropped.width, cropped.height], [side, side], path)
            XCTAssertGreaterThan(OffCentrePhoto.photoPixels(in: cropped) * share, whole * 90 / 100, path)
        }
        let centre = try transform(Image(pixels: pixels), "c:300:300:ce").pixels
        XCTAssertLessThan(OffCentrePhoto.photoPixels(in: centre), whole / 10)
    }

    func testAnAnimationIsCutWhereItsFirstFrameSays() throws {
        let first = try OffCentrePhoto.pixels()
        // The second frame has the photo on the left; cut where the first frame says, it loses it.
        let second = first.applying(.upMirrored)
        let animation = Image(frames: [ImageFrame(pixels: first, duration: 0.1), ImageFrame(pixels: second, duration: 0.1)])
        let whole = OffCentrePhoto.photoPixels(in: first)
        for path in ["c:384:384:sm", "rs:fill:384:384/g:sm"] {
            let frames = try transform(animation, path).frames
            XCTAssertEqual(frames.count, 2)
            XCTAssertGreaterThan(OffCentrePhoto.photoPixels(in: frames[0].pixels), whole * 95 / 100, path)
            XCTAssertLessThan(OffCentrePhoto.photoPixels(in: frames[1].pixels), whole / 10, path)
        }
    }

    func testExtendWithSmartGravityCentres() throws {
        let small = Image(pixels: PixelBuffer(width: 2, height: 2, fill: RGBA(r: 255, g: 0, b: 0)))
        let extended = try transform(small, "rs:fit:4:4:0:1/g:sm/bg:ffffff").pixels
        // extend has a gravity of its own (centre here), not the main smart one; imgproxy
        // centres 2 in 4 at (4 - 2 + 1) / 2 = 1.5, rounded half to even: 2.
        XCTAssertEqual(extended[2, 2], RGBA(r: 255, g: 0, b: 0))
        XCTAssertEqual(extended[3, 3], RGBA(r: 255, g: 0, b: 0))
        XCTAssertEqual(extended[1, 1], RGBA(r: 255, g: 255, b: 255))
    }
}
