import Foundation
import WebImage
import WebImageCodecs
import WebImageServer
import WebImageTestSupport
import XCTest

/// imgproxy's geometry through a real `webimage serve`: the sizes of its processing, crop,
/// extend and padding test tables (on a 200 × 100 source, as imgproxy's `geometry.png`), and
/// where crops and canvases put the image, read from the served pixels.
final class ServeImgproxyGeometryTests: ServeTestCase {
    private var base = ""

    override func setUp() async throws {
        try await super.setUp()
        origin.route("/geometry.png", .bytes(try ImgproxyTestImages.png(ImgproxyTestImages.geometry), contentType: "image/png"))
        base = try await serve(["--allow-loopback-sources", "--allow-security-options"])
    }

    /// The image `options` make of the 200 × 100 source, in PNG, after checking it is a 200.
    private func served(_ options: String, file: StaticString = #filePath, line: UInt = #line) async throws -> PixelBuffer {
        let response = try await get(base + "/insecure/\(options)/plain/\(origin.url("/geometry.png").absoluteString)@png")
        XCTAssertEqual(response.status, 200, "\(options): " + String(decoding: response.body, as: UTF8.self), file: file, line: line)
        return try ImageCoders.shared.decode(response.body).pixels
    }

    /// Checks each `options → width×height` row of `table`.
    private func check(_ table: [(String, Int, Int)], file: StaticString = #filePath, line: UInt = #line) async throws {
        for (options, width, height) in table {
            let pixels = try await served(options, file: file, line: line)
            XCTAssertEqual("\(pixels.width)x\(pixels.height)", "\(width)x\(height)", options, file: file, line: line)
        }
    }

    /// imgproxy's processing_test.go: TestResizeToFit, …Enlarge, …Extend, …ExtendAR, every row.
    func testResizeToFitTables() async throws {
        try await check([
            ("rs:fit:50:50", 50, 25), ("rs:fit:50:20", 40, 20), ("rs:fit:20:50", 20, 10), ("rs:fit:300:300", 200, 100),
            ("rs:fit:300:50", 100, 50), ("rs:fit:100:300", 100, 50), ("rs:fit:0:50", 100, 50), ("rs:fit:50:0", 50, 25),
            ("rs:fit:0:200", 200, 100), ("rs:fit:300:0", 200, 100),
            ("rs:fit:300:300/el:1", 300, 150), ("rs:fit:300:125/el:1", 250, 125), ("rs:fit:250:300/el:1", 250, 125),
            ("rs:fit:0:200/el:1", 400, 200), ("rs:fit:300:0/el:1", 300, 150),
            ("rs:fit:50:50/ex:1", 50, 50), ("rs:fit:50:20/ex:1", 50, 20), ("rs:fit:20:50/ex:1", 20, 50),
            ("rs:fit:300:300/ex:1", 300, 300), ("rs:fit:300:125/ex:1", 300, 125), ("rs:fit:250:300/ex:1", 250, 300),
            ("rs:fit:0:50/ex:1", 100, 50), ("rs:fit:50:0/ex:1", 50, 25), ("rs:fit:0:200/ex:1", 200, 200),
            ("rs:fit:300:0/ex:1", 300, 100),
            ("rs:fit:50:50/exar:1", 50, 50), ("rs:fit:300:300/exar:1", 200, 200), ("rs:fit:300:125/exar:1", 240, 100),
            ("rs:fit:250:500/exar:1", 200, 400), ("rs:fit:0:200/exar:1", 200, 100), ("rs:fit:300:0/exar:1", 200, 100),
            ("rs:fit:50:50/el:1", 50, 25), ("rs:fit:50:20/el:1", 40, 20), ("rs:fit:20:50/el:1", 20, 10),
            ("rs:fit:0:50/el:1", 100, 50), ("rs:fit:50:0/el:1", 50, 25), ("rs:fit:50:20/exar:1", 50, 20),
            ("rs:fit:20:50/exar:1", 20, 50), ("rs:fit:0:50/exar:1", 100, 50), ("rs:fit:50:0/exar:1", 50, 25),
        ])
    }

    /// imgproxy's processing_test.go: TestResizeToFill and TestResizeToFillDown with their
    /// Enlarge, Extend and ExtendAR variants, every row.
    func testResizeToFillTables() async throws {
        try await check([
            ("rs:fill:50:20", 50, 20), ("rs:fill:300:300", 200, 100), ("rs:fill:300:50", 200, 50), ("rs:fill:100:300", 100, 100),
            ("rs:fill:300:125/el:1", 300, 125), ("rs:fill:0:200/el:1", 400, 200),
            ("rs:fill:300:50/ex:1", 300, 50), ("rs:fill:100:300/ex:1", 100, 300), ("rs:fill:0:200/ex:1", 200, 200),
            ("rs:fill:300:125/exar:1", 240, 100), ("rs:fill:250:500/exar:1", 200, 400), ("rs:fill:300:50/exar:1", 300, 50),
            ("rs:fill:100:300/exar:1", 100, 300),
            ("rs:fill-down:300:300", 100, 100), ("rs:fill-down:300:125", 200, 83), ("rs:fill-down:250:300", 83, 100),
            ("rs:fill-down:300:125/el:1", 300, 125), ("rs:fill-down:300:300/ex:1", 300, 300),
            ("rs:fill-down:300:125/exar:1", 200, 83), ("rs:fill-down:0:200/exar:1", 200, 100),
            ("rs:fill:50:50", 50, 50), ("rs:fill:20:50", 20, 50), ("rs:fill:0:50", 100, 50), ("rs:fill:50:0", 50, 25),
            ("rs:fill:0:200", 200, 100), ("rs:fill:300:0", 200, 100), ("rs:fill:50:50/el:1", 50, 50),
            ("rs:fill:50:20/el:1", 50, 20), ("rs:fill:20:50/el:1", 20, 50), ("rs:fill:300:300/el:1", 300, 300),
            ("rs:fill:250:300/el:1", 250, 300), ("rs:fill:0:50/el:1", 100, 50), ("rs:fill:50:0/el:1", 50, 25),
            ("rs:fill:300:0/el:1", 300, 150), ("rs:fill:50:50/ex:1", 50, 50), ("rs:fill:50:20/ex:1", 50, 20),
            ("rs:fill:20:50/ex:1", 20, 50), ("rs:fill:300:300/ex:1", 300, 300), ("rs:fill:300:125/ex:1", 300, 125),
            ("rs:fill:250:300/ex:1", 250, 300), ("rs:fill:0:50/ex:1", 100, 50), ("rs:fill:50:0/ex:1", 50, 25),
            ("rs:fill:300:0/ex:1", 300, 100), ("rs:fill:50:50/exar:1", 50, 50), ("rs:fill:50:20/exar:1", 50, 20),
            ("rs:fill:20:50/exar:1", 20, 50), ("rs:fill:300:300/exar:1", 200, 200), ("rs:fill:0:50/exar:1", 100, 50),
            ("rs:fill:50:0/exar:1", 50, 25), ("rs:fill:0:200/exar:1", 200, 100), ("rs:fill:300:0/exar:1", 200, 100),
            ("rs:fill-down:50:50", 50, 50), ("rs:fill-down:50:20", 50, 20), ("rs:fill-down:20:50", 20, 50),
            ("rs:fill-down:0:50", 100, 50), ("rs:fill-down:50:0", 50, 25), ("rs:fill-down:0:200", 200, 100),
            ("rs:fill-down:300:0", 200, 100), ("rs:fill-down:50:50/el:1", 50, 50), ("rs:fill-down:50:20/el:1", 50, 20),
            ("rs:fill-down:20:50/el:1", 20, 50), ("rs:fill-down:300:300/el:1", 300, 300),
            ("rs:fill-down:250:300/el:1", 250, 300), ("rs:fill-down:0:50/el:1", 100, 50), ("rs:fill-down:50:0/el:1", 50, 25),
            ("rs:fill-down:0:200/el:1", 400, 200), ("rs:fill-down:300:0/el:1", 300, 150), ("rs:fill-down:50:50/ex:1", 50, 50),
            ("rs:fill-down:50:20/ex:1", 50, 20), ("rs:fill-down:20:50/ex:1", 20, 50), ("rs:fill-down:300:125/ex:1", 300, 125),
            ("rs:fill-down:250:300/ex:1", 250, 300), ("rs:fill-down:300:50/ex:1", 300, 50),
            ("rs:fill-down:100:300/ex:1", 100, 300), ("rs:fill-down:0:50/ex:1", 100, 50), ("rs:fill-down:50:0/ex:1", 50, 25),
            ("rs:fill-down:0:200/ex:1", 200, 200), ("rs:fill-down:300:0/ex:1", 300, 100),
            ("rs:fill-down:50:50/exar:1", 50, 50), ("rs:fill-down:50:20/exar:1", 50, 20),
            ("rs:fill-down:20:50/exar:1", 20, 50), ("rs:fill-down:300:300/exar:1", 100, 100),
            ("rs:fill-down:250:300/exar:1", 83, 100), ("rs:fill-down:0:50/exar:1", 100, 50),
            ("rs:fill-down:50:0/exar:1", 50, 25), ("rs:fill-down:300:0/exar:1", 200, 100),
        ])
    }

    /// imgproxy's processing_test.go TestResultSizeLimit, every row: `max_result_dimension`
    /// scales the canvases and the padding down with the image.
    func testMaxResultDimensionTable() async throws {
        try await check([
            ("mrd:1000/rs:fit:100:100", 100, 50), ("mrd:50/rs:fit:100:100", 50, 25), ("mrd:50/rs:fit:0:0", 50, 25),
            ("mrd:50/rs:fit:150:0", 50, 25), ("mrd:100/rs:fit:1000:1000:1", 100, 50),
            ("mrd:100/rs:fit:1000:2000/ex:1", 50, 100), ("mrd:100/rs:fit:1000:2000/exar:1", 50, 100),
            ("mrd:100/rs:fit:100:150/rot:90", 50, 100), ("mrd:200/rs:fit:100:100/pd:100:200:300:400", 200, 129),
            ("mrd:50/rs:fill:1000:50", 50, 13), ("mrd:100/rs:fill:1000:1000:1", 100, 100),
            ("mrd:100/rs:fill:100:150/rot:90", 67, 100), ("mrd:200/rs:fill:100:100/pd:100:200:300:400", 200, 144),
            ("mrd:50/rs:fill-down:1000:50", 50, 3), ("mrd:50/rs:fill-down:100:1000", 5, 50),
            ("mrd:100/rs:fill-down:1000:1500/rot:90", 67, 100),
            ("max_result_dimension:200/rs:fill-down:1000:1000/padding:100:200:300:400", 200, 144),
            ("mrd:100/rs:fit:0:100", 100, 50), ("mrd:100/rs:fit:1000:1000", 100, 50), ("mrd:100/rs:fit:0:0/rot:90", 50, 100),
            ("mrd:1000/rs:fill:100:100", 100, 100), ("mrd:50/rs:fill:100:100", 50, 50), ("mrd:50/rs:fill:100:1000", 50, 50),
            ("mrd:50/rs:fill:0:0", 50, 25), ("mrd:100/rs:fill:0:100", 100, 50), ("mrd:50/rs:fill:150:0", 50, 25),
            ("mrd:100/rs:fill:1000:1000", 100, 50), ("mrd:100/rs:fill:1000:2000/ex:1", 50, 100),
            ("mrd:100/rs:fill:1000:2000/exar:1", 50, 100), ("mrd:100/rs:fill:0:0/rot:90", 50, 100),
            ("mrd:1000/rs:fill-down:100:100", 100, 100), ("mrd:50/rs:fill-down:100:100", 50, 50),
            ("mrd:50/rs:fill-down:0:0", 50, 25), ("mrd:100/rs:fill-down:0:100", 100, 50),
            ("mrd:50/rs:fill-down:150:0", 50, 25), ("mrd:100/rs:fill-down:1000:1000", 100, 100),
            ("mrd:100/rs:fill-down:1000:1000/el:1", 100, 100), ("mrd:100/rs:fill-down:1000:2000/ex:1", 50, 100),
            ("mrd:100/rs:fill-down:1000:2000/exar:1", 50, 100), ("mrd:100/rs:fill-down:0:0/rot:90", 50, 100),
            ("mrd:200/rs:fill-down:100:100/pd:100:200:300:400", 200, 144),
        ])
    }

    /// imgproxy's crop_test.go TestCrop and TestResizeFill, and the centring the brief of
    /// issue #34 names: a 50 × 50 crop of 200 × 100 starts at 76, 26 (spare + 1 halved, to even).
    func testCropPlacementAndDevicePixelRatio() async throws {
        let centre = try await served("c:50:50")
        XCTAssertEqual(centre[0, 0], RGBA(r: 76, g: 52, b: 128))
        // Offsets below 1 are fractions of the side: 0.1 of 200 is 20 pixels right.
        let fraction = try await served("c:50:50:ce:0.1")
        XCTAssertEqual(fraction[0, 0], RGBA(r: 96, g: 52, b: 128))
        let north = try await served("c:50:50:no:0:0.1")
        XCTAssertEqual(north[0, 0], RGBA(r: 76, g: 20, b: 128))
        let pixels = try await served("c:50:50:ce:10:10")
        XCTAssertEqual(pixels[0, 0], RGBA(r: 86, g: 72, b: 128))
        try await check([
            ("c:50:50:ce:10:10/dpr:0.5", 25, 25),  // TestCrop "Dpr": the ratio applies without a size
            ("rs:fill:100:26/g:no:0:5/dpr:2", 200, 52), ("rs:fill:100:26/g:no:0:5/dpr:0.5", 50, 13),
            ("rs:fill:26:100/g:no:5/dpr:2", 26, 100),  // the ratio never enlarges without el
            ("rs:fill:100:26/g:no:0:0.1/dpr:0.5", 50, 13),
            ("rs:force:300:50", 200, 33), ("rs:force:0:50", 200, 50),
        ])
    }

    /// imgproxy's crop_test.go TestCrop, every row: a 50 × 50 crop of the 200 × 100 source by
    /// each gravity and offset, read where it starts (the source's pixel at x, y is r = x,
    /// g = 2y); and TestCropGravityPriority: the crop's own gravity wins over `g`, which applies
    /// when the crop names none.
    func testCropGravityTable() async throws {
        let starts: [(String, Int, Int)] = [
            ("c:50:50:ce", 76, 26), ("c:50:50:no", 76, 0), ("c:50:50:so", 76, 50), ("c:50:50:ea", 150, 26),
            ("c:50:50:we", 0, 26), ("c:50:50:noea", 150, 0), ("c:50:50:nowe", 0, 0), ("c:50:50:soea", 150, 50),
            ("c:50:50:sowe", 0, 50), ("c:50:50:ce:10", 86, 26), ("c:50:50:ce::10", 76, 36), ("c:50:50:ce:10:10", 86, 36),
            ("c:50:50:ce:0.1", 96, 26), ("c:50:50:ce::0.1", 76, 36), ("c:50:50:ce:0.1:0.1", 96, 36),
        ]
        for (options, x, y) in starts {
            let crop = try await served(options)
            XCTAssertEqual("\(crop.width)x\(crop.height)", "50x50", options)
            XCTAssertEqual(crop[0, 0], RGBA(r: UInt8(x), g: UInt8(2 * y), b: 128), options)
        }
        let byGravity = try await served("c:50:50/g:no")
        let byCrop = try await served("c:50:50:no")
        let overriding = try await served("c:50:50:no/g:so")
        XCTAssertEqual(byGravity.bytes, byCrop.bytes)
        XCTAssertEqual(overriding.bytes, byCrop.bytes)
    }

    /// imgproxy's crop_test.go TestResizeFill, every row: a fill crops where its gravity says,
    /// offsets and the ratio included.
    func testFillGravityTable() async throws {
        let wider = ["ce", "no", "so", "noea", "soea", "sowe", "nowe"].map { ("rs:fill:100:26/g:\($0)", 100, 26) }
        let taller = ["ce", "ea", "we", "noea", "soea", "sowe", "nowe"].map { ("rs:fill:26:100/g:\($0)", 26, 100) }
        try await check(wider + taller + [
            ("rs:fill:100:26/g:ce/dpr:2", 200, 52), ("rs:fill:100:26/g:no::5", 100, 26), ("rs:fill:100:26/g:no::5/dpr:0.5", 50, 13),
            ("rs:fill:100:26/g:no::5/dpr:2", 200, 52), ("rs:fill:26:100/g:no:5", 26, 100), ("rs:fill:26:100/g:no:5/dpr:0.5", 13, 50),
            ("rs:fill:26:100/g:no:5/dpr:2", 26, 100), ("rs:fill:100:26/g:no::0.1", 100, 26),
            ("rs:fill:100:26/g:no::0.1/dpr:0.5", 50, 13), ("rs:fill:100:26/g:no::0.1/dpr:2", 200, 52),
        ])
        // Scaled to 100 × 50 and cut to 26 rows: north keeps the top rows, south the bottom ones.
        let north = try await served("rs:fill:100:26/g:no")
        let south = try await served("rs:fill:100:26/g:so")
        XCTAssertLessThan(north[50, 0].g, 8)
        XCTAssertGreaterThan(south[50, 25].g, 190)
    }

    /// imgproxy's extend_test.go, every gravity of TestExtend and TestExtendAspectRatio: the
    /// source's corners land where the gravity puts the image on the canvas.
    func testExtendGravityTable() async throws {
        let extend: [(String, Int, Int)] = [
            ("ce", 150, 200), ("no", 150, 0), ("so", 150, 400), ("ea", 300, 200), ("we", 0, 200),
            ("noea", 300, 0), ("nowe", 0, 0), ("soea", 300, 400), ("sowe", 0, 400),
        ]
        for (gravity, x, y) in extend {
            let canvas = try await served("w:500/h:500/ex:1:\(gravity)")
            XCTAssertEqual("\(canvas.width)x\(canvas.height)", "500x500", gravity)
            XCTAssertEqual(canvas[x, y], RGBA(r: 0, g: 0, b: 128), gravity)
            XCTAssertEqual(canvas[x + 199, y + 99], RGBA(r: 199, g: 198, b: 128), gravity)
        }
        // The aspect ratio's canvas is 200 × 400: the image moves along its height only.
        let aspect: [(String, Int)] = [("ce", 150), ("no", 0), ("ea", 150), ("we", 150), ("noea", 0), ("soea", 300), ("sowe", 300), ("nowe", 0)]
        for (gravity, y) in aspect {
            let canvas = try await served("w:300/h:600/exar:1:\(gravity)")
            XCTAssertEqual("\(canvas.width)x\(canvas.height)", "200x400", gravity)
            XCTAssertEqual(canvas[0, y], RGBA(r: 0, g: 0, b: 128), gravity)
        }
        // Every offset row, in imgproxy's spelling (an empty x where only y is given); a ratio of 2
        // never enlarges the canvas.
        try await check([
            ("w:500/h:500/ex:1:no::5", 500, 500), ("w:500/h:500/ex:1:no::5/dpr:0.5", 250, 250),
            ("w:500/h:500/ex:1:no::5/dpr:2", 500, 500), ("w:500/h:500/ex:1:ea:5", 500, 500),
            ("w:500/h:500/ex:1:ea:5/dpr:0.5", 250, 250), ("w:500/h:500/ex:1:ea:5/dpr:2", 500, 500),
            ("w:500/h:500/ex:1:no::0.1", 500, 500), ("w:500/h:500/ex:1:no::0.1/dpr:0.5", 250, 250),
            ("w:500/h:500/ex:1:no::0.1/dpr:2", 500, 500),
            ("w:300/h:600/exar:1:no::5", 200, 400), ("w:300/h:600/exar:1:no::5/dpr:0.5", 150, 300),
            ("w:300/h:600/exar:1:no::5/dpr:2", 200, 400), ("w:300/h:600/exar:1:ea:5", 200, 400),
            ("w:300/h:600/exar:1:ea:5/dpr:0.5", 150, 300), ("w:300/h:600/exar:1:ea:5/dpr:2", 200, 400),
            ("w:300/h:600/exar:1:no::0.1", 200, 400), ("w:300/h:600/exar:1:no::0.1/dpr:0.5", 150, 300),
            ("w:300/h:600/exar:1:no::0.1/dpr:2", 200, 400),
        ])
    }

    /// imgproxy's extend_test.go TestExtend and TestExtendAspectRatio: gravity with offsets,
    /// offsets times the ratio, and a transparent canvas without a background.
    func testExtendPlacesByItsOwnGravity() async throws {
        try await check([
            ("w:500/h:500/ex:1:ce", 500, 500), ("w:500/h:500/ex:1:soea", 500, 500),
            ("w:500/h:500/ex:1:no:0:5/dpr:0.5", 250, 250), ("w:500/h:500/ex:1:ea:5/dpr:2", 500, 500),
            ("w:300/h:600/exar:1:no:0:5", 200, 400), ("w:300/h:600/exar:1:no:0:5/dpr:0.5", 150, 300),
            ("w:300/h:600/extend_aspect_ratio:1:ea:5/dpr:2", 200, 400),
        ])
        let north = try await served("w:500/h:500/ex:1:no:0:5")
        XCTAssertEqual(north[150, 5], RGBA(r: 0, g: 0, b: 128), "the source's corner, 5 pixels down, centred across")
        XCTAssertEqual(north[150, 4], .clear, "no background: the canvas is transparent")
        let halved = try await served("w:500/h:500/ex:1:no:0:5/dpr:0.5")
        XCTAssertEqual(halved[76, 1].a, 0, "5 × 0.5 rounds half to even: 2 pixels down")
        XCTAssertEqual(halved[76, 2].a, 255)
        let east = try await served("w:500/h:500/ex:1:ea:5/bg:ffffff")
        XCTAssertEqual(east[494, 200], RGBA(r: 199, g: 0, b: 128), "5 pixels in from the right edge")
        XCTAssertEqual(east[495, 200], RGBA(r: 255, g: 255, b: 255))
        let relative = try await served("w:500/h:500/ex:1:no:0:0.1")
        XCTAssertEqual(relative[150, 50], RGBA(r: 0, g: 0, b: 128), "0.1 of 500 down")
        let aspect = try await served("w:300/h:600/exar:1:so")
        XCTAssertEqual(aspect[0, 300], RGBA(r: 0, g: 0, b: 128), "the image at the bottom of its 200 × 400 canvas")
        XCTAssertEqual(aspect[0, 299], .clear)
    }

    /// imgproxy's rotate_and_flip_test.go: eight sources with the same stored pixels and EXIF
    /// orientations 1…8, each with every rotation (0, 90, 180, 270) and flip (none, horizontal,
    /// vertical, both), with and without `auto_rotate`. Without it, every source gives the same
    /// image for each combination; with it, no source gives the same image as the first; and
    /// within one source, each combination differs from the one before.
    func testRotateAndFlipOnEveryOrientation() async throws {
        for orientation in 1...8 {
            let png = try ImgproxyTestImages.png(ImgproxyTestImages.geometry, exifOrientation: UInt8(orientation))
            origin.route("/orientation-\(orientation).png", .bytes(png, contentType: "image/png"))
        }
        var combinations: [String] = []
        for rotation in [0, 90, 180, 270] {
            for (horizontal, vertical) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
                combinations.append("rot:\(rotation)/fl:\(horizontal):\(vertical)")
            }
        }
        for autoRotate in [false, true] {
            var images: [[PixelBuffer]] = []
            for orientation in 1...8 {
                var row: [PixelBuffer] = []
                for combination in combinations {
                    let path = "/insecure/\(combination)/ar:\(autoRotate ? 1 : 0)/plain/"
                        + origin.url("/orientation-\(orientation).png").absoluteString + "@png"
                    let response = try await get(base + path)
                    XCTAssertEqual(response.status, 200, path)
                    row.append(try ImageCoders.shared.decode(response.body).pixels)
                }
                for index in row.indices.dropFirst() {
                    XCTAssertNotEqual(row[index], row[index - 1], "orientation \(orientation): \(combinations[index]) after \(combinations[index - 1])")
                }
                images.append(row)
            }
            for orientation in 2...8 {
                for index in combinations.indices {
                    let same = images[orientation - 1][index] == images[0][index]
                    XCTAssertEqual(same, !autoRotate, "orientation \(orientation), \(combinations[index]), auto_rotate \(autoRotate)")
                }
            }
        }
        // The plain stored pixels without auto_rotate; with it, orientation 6 stands the image up (100 × 200).
        let stored = try await get(base + "/insecure/ar:0/plain/" + origin.url("/orientation-6.png").absoluteString + "@png")
        XCTAssertEqual(try ImageCoders.shared.decode(stored.body).pixels, ImgproxyTestImages.geometry)
        let upright = try await get(base + "/insecure/plain/" + origin.url("/orientation-6.png").absoluteString + "@png")
        let turned = try ImageCoders.shared.decode(upright.body).pixels
        XCTAssertEqual([turned.width, turned.height], [100, 200])
        XCTAssertEqual(turned[99, 0], RGBA(r: 0, g: 0, b: 128), "6 turns clockwise: the stored top left is at the top right")
    }

    /// imgproxy's padding_test.go TestPadding: CSS order, times the ratio, on the background.
    func testPaddingTable() async throws {
        try await check([
            ("dpr:0.5/pd:20:30:40:10/bg:f00/el:1", 120, 80), ("dpr:1/pd:20:30:40:10/bg:f00/el:1", 240, 160),
            ("dpr:2/pd:20:30:40:10/bg:f00/el:1", 480, 320),
            ("pd:10", 220, 120), ("pd:10:20", 240, 120), ("pd:10:20:30", 240, 140),
        ])
        let padded = try await served("pd:20:30:40:10/bg:f00")
        XCTAssertEqual(padded[10, 20], RGBA(r: 0, g: 0, b: 128), "the source starts after the left and top padding")
        XCTAssertEqual(padded[9, 20], RGBA(r: 255, g: 0, b: 0))
        let transparent = try await served("pd:5")
        XCTAssertEqual(transparent[0, 0], .clear)
        XCTAssertEqual(transparent[5, 5], RGBA(r: 0, g: 0, b: 128))
    }

    /// imgproxy's rotate_and_flip_test.go: flips after the rotation, each axis on its own.
    func testFlipMirrorsAfterTheRotation() async throws {
        let horizontal = try await served("fl:1")
        XCTAssertEqual(horizontal[0, 0], RGBA(r: 199, g: 0, b: 128))
        let vertical = try await served("flip::1")
        XCTAssertEqual(vertical[0, 0], RGBA(r: 0, g: 198, b: 128))
        let turned = try await served("rot:90/fl:1")
        XCTAssertEqual([turned.width, turned.height], [100, 200])
        XCTAssertEqual(turned[0, 0], RGBA(r: 0, g: 0, b: 128), "a clockwise turn then a mirror bring the top left back")
    }
}
