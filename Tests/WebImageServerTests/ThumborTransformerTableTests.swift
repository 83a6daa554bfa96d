@testable import WebImageServer
import Foundation
import WebImage
import WebImageCodecs
import WebImageTestSupport
import XCTest

/// The rows of thumbor's transformer tables (tests/test_transformer.py over `TESTITEMS` and
/// `FIT_IN_CROP_DATA` in tests/fixtures/transformer_test_data.py, and that file's one-row
/// tests), each checked for the size of the result and for the part of the source it keeps.
///
/// How a row reads: thumbor's table passes its crop box into the request as the manual crop
/// (`AxB:CxD`) and expects the engine's first crop to be exactly that box, then a resize to
/// the size asked. Every box already has the shape of the size asked, so no second crop
/// follows; a row without a box expects no crop at all. Here each row is a thumbor URL read by
/// ``ThumborURLParser`` and run in-process on a flat image of the row's size: the `meta`
/// description ``ProcessingTransformer`` gives (the crops in the coordinates of the image
/// before each, the resize, the flips, in thumbor's terms) must list exactly those operations,
/// and the image it makes must have the size the description names.
///
/// Where thumbor's table is written against its mock engine, whose size never changes after a
/// crop, and the numbers differ from what a real image gives, the comment says so and the row
/// asserts what thumbor's transformer does with a real image.
final class ThumborTransformerTableTests: XCTestCase {
    /// One operation of the description, in thumbor's engine's terms.
    private enum Step: Equatable {
        case crop(Int, Int, Int, Int)
        case resize(Int, Int)
        case flipHorizontally, flipVertically
        /// An operation no row expects: its description fails the row's comparison.
        case unknown(String)
    }

    /// A crop box as thumbor's table writes it: left, top, right, bottom.
    private struct Box {
        let left, top, right, bottom: Int
        init(_ left: Int, _ top: Int, _ right: Int, _ bottom: Int) {
            (self.left, self.top, self.right, self.bottom) = (left, top, right, bottom)
        }

        var url: String { "\(left)x\(top):\(right)x\(bottom)" }
        var size: [Int] { [right - left, bottom - top] }
    }

    /// A `TESTITEMS` row: the source, the size part of the URL (with its alignment and any
    /// focal filter), the box thumbor's table crops (also the request's manual crop), and the
    /// size of the result.
    private struct Row {
        let source: [Int]
        let path: String
        let box: Box?
        let size: [Int]
        var line: UInt = #line

        /// The operations thumbor's transformer makes for this row with a real image: the
        /// manual crop, then a resize unless the image already has the size asked.
        var steps: [Step] {
            var steps: [Step] = []
            var current = source
            if let box {
                steps.append(.crop(box.left, box.top, box.right, box.bottom))
                current = box.size
            }
            if current != size { steps.append(.resize(size[0], size[1])) }
            return steps
        }

        /// The URL's parts: the box first, then the size and alignment.
        var url: String { [box?.url, path].compactMap { $0 }.joined(separator: "/") }
    }

    /// What the URL `path` (between `/unsafe/meta/` and the image) answers for `image`: the
    /// description's operations and target, and the size of the image actually made.
    private func answer(_ path: String, image: Image) throws -> (steps: [Step], target: [Int], made: [Int]) {
        let url = try ThumborURLParser().parse("/unsafe/meta/\(path)/h/x.jpg")
        let meta = try XCTUnwrap(url.options.meta, path)
        let transformer = ProcessingTransformer(options: url.options)
        let json = try JSONSerialization.jsonObject(with: transformer.metadata(of: image, meta: meta)) as? [String: Any]
        let thumbor = try XCTUnwrap(json?["thumbor"] as? [String: Any], path)
        let operations = try XCTUnwrap(thumbor["operations"] as? [[String: Any]], path)
        let steps = try operations.map { operation -> Step in
            func value(_ key: String) throws -> Int { try XCTUnwrap(operation[key] as? Int, "\(path): \(key)") }
            switch operation["type"] as? String {
            case "crop": return .crop(try value("left"), try value("top"), try value("right"), try value("bottom"))
            case "resize": return .resize(try value("width"), try value("height"))
            case "flip_horizontally": return .flipHorizontally
            case "flip_vertically": return .flipVertically
            default: return .unknown("\(operation)")
            }
        }
        let target = try XCTUnwrap(thumbor["target"] as? [String: Int], path)
        let made = try XCTUnwrap(transformer.transform(image, forKey: ""), path)
        return (steps, [target["width"] ?? -1, target["height"] ?? -1], [made.pixelWidth, made.pixelHeight])
    }

    /// A grey image of `size`, or, with a `box`, blue inside the box and red outside it.
    private func source(_ size: [Int], box: Box? = nil) -> Image {
        let red = RGBA(r: 255, g: 0, b: 0), blue = RGBA(r: 0, g: 0, b: 255)
        guard let box else { return Image(pixels: PixelBuffer(width: size[0], height: size[1], fill: RGBA(r: 128, g: 128, b: 128))) }
        var pixels = PixelBuffer(width: size[0], height: size[1], fill: red)
        for y in box.top..<box.bottom {
            for x in box.left..<box.right { pixels[x, y] = blue }
        }
        return Image(pixels: pixels)
    }

    /// Checks `rows`, each as written and again with `smart/` (test_transformer.py runs the
    /// table a second time with a detector that finds nothing; the result must not change).
    private func check(_ rows: [Row]) throws {
        for row in rows {
            for smart in [false, true] {
                let path = row.url + (smart ? "/smart" : "")
                let label = "\(row.source[0])×\(row.source[1]) \(path)"
                let image = source(row.source, box: row.box)
                let (steps, target, made) = try answer(path, image: image)
                XCTAssertEqual(steps, row.steps, label, line: row.line)
                XCTAssertEqual(target, row.size, label, line: row.line)
                XCTAssertEqual(made, row.size, label, line: row.line)
                if row.box != nil {
                    // The kept part is the box alone: not one pixel of the red around it comes through.
                    let result = try XCTUnwrap(ProcessingTransformer(options: try ThumborURLParser().parse("/unsafe/\(path)/h/x.jpg").options)
                        .transform(image, forKey: ""), label)
                    let reddest = (0..<result.pixelHeight).flatMap { y in (0..<result.pixelWidth).map { result.pixels[$0, y].r } }.max()
                    XCTAssertEqual(reddest, 0, label, line: row.line)
                }
            }
        }
    }

    private func focal(_ points: [(Int, Int)]) -> String {
        // thumbor's focal(LxT:RxB) adds the point at the square's centre with its area as the
        // weight: a 1 × 1 square at (x, y) is the table's point (x, y) of weight 1.
        "filters:" + points.map { "focal(\($0.0)x\($0.1):\($0.0 + 1)x\($0.1 + 1))" }.joined(separator: ":")
    }

    // MARK: - TESTITEMS

    func testCentredRowsWithAndWithoutFocalPoints() throws {
        try check([
            Row(source: [800, 600], path: "400x150/center/middle", box: Box(0, 75, 800, 375), size: [400, 150]),
            Row(source: [600, 800], path: "150x400/center/middle", box: Box(150, 0, 450, 800), size: [150, 400]),
            Row(source: [600, 800], path: "300x400/center/middle", box: nil, size: [300, 400]),
            Row(source: [800, 600], path: "0x0/center/middle", box: nil, size: [800, 600]),
            Row(source: [800, 600], path: "400x0/center/middle", box: nil, size: [400, 300]),
            Row(source: [200, 140], path: "180x100/center/middle", box: Box(0, 3, 200, 114), size: [180, 100]),
            Row(source: [200, 200], path: "100x100/center/middle/" + focal([(100, 100)]), box: nil, size: [100, 100]),
            Row(source: [400, 200], path: "100x100/center/middle/" + focal([(100, 100)]), box: Box(50, 0, 250, 200), size: [100, 100]),
            // thumbor's table also expects a resize to 100 × 200 here: its mock engine stays
            // 400 × 200 after the crop. A real image is already 100 × 200 and is not resized.
            Row(source: [400, 200], path: "100x200/center/middle/" + focal([(100, 50), (300, 50)]), box: Box(150, 0, 250, 200), size: [100, 200]),
            Row(source: [400, 200], path: "100x200/center/middle/" + focal([(100, 150), (300, 150)]), box: Box(150, 0, 250, 200), size: [100, 200]),
            Row(source: [400, 200], path: "100x200/center/middle/" + focal([(100, 50), (100, 150)]), box: Box(75, 0, 175, 200), size: [100, 200]),
            Row(source: [400, 200], path: "100x200/center/middle/" + focal([(300, 50), (300, 150)]), box: Box(225, 0, 325, 200), size: [100, 200]),
            Row(source: [200, 400], path: "100x200/center/middle/" + focal([(100, 50), (300, 50)]), box: nil, size: [100, 200]),
            Row(source: [200, 400], path: "100x200/center/middle/" + focal([(100, 150), (300, 150)]), box: nil, size: [100, 200]),
            Row(source: [200, 400], path: "100x200/center/middle/" + focal([(100, 50), (100, 150)]), box: nil, size: [100, 200]),
            Row(source: [200, 400], path: "100x200/center/middle/" + focal([(300, 50), (300, 150)]), box: nil, size: [100, 200]),
            Row(source: [400, 200], path: "100x100/center/middle/" + focal([(50, 100), (50, 300), (150, 100), (150, 300)]),
                box: Box(50, 0, 250, 200), size: [100, 100]),
        ])
    }

    func testBottomAlignedRows() throws {
        try check([
            Row(source: [800, 600], path: "400x300/center/bottom", box: nil, size: [400, 300]),
            // As above, the 150 × 300 boxes need no resize with a real image.
            Row(source: [700, 300], path: "150x300/center/bottom", box: Box(275, 0, 425, 300), size: [150, 300]),
            Row(source: [700, 300], path: "300x150/right/bottom", box: Box(100, 0, 700, 300), size: [300, 150]),
            Row(source: [700, 300], path: "300x150/left/bottom", box: Box(0, 0, 600, 300), size: [300, 150]),
            Row(source: [700, 300], path: "150x300/left/bottom", box: Box(0, 0, 150, 300), size: [150, 300]),
            Row(source: [700, 300], path: "150x300/right/bottom", box: Box(550, 0, 700, 300), size: [150, 300]),
            Row(source: [300, 800], path: "200x300/center/bottom", box: Box(0, 251, 300, 701), size: [200, 300]),
            Row(source: [300, 800], path: "200x300/left/bottom", box: Box(0, 251, 300, 701), size: [200, 300]),
            Row(source: [300, 800], path: "200x300/right/bottom", box: Box(0, 251, 300, 701), size: [200, 300]),
            Row(source: [500, 600], path: "300x250/center/bottom", box: Box(0, 119, 500, 536), size: [300, 250]),
            Row(source: [500, 600], path: "300x250/left/bottom", box: Box(0, 119, 500, 536), size: [300, 250]),
            Row(source: [500, 600], path: "300x250/right/bottom", box: Box(0, 119, 500, 536), size: [300, 250]),
        ])
    }

    /// A side of 0 follows the other: the whole source is scaled, nothing is cropped.
    func testZeroSidesScaleTheWholeSource() throws {
        var rows: [Row] = []
        for halign in ["right", "center", "left"] {
            rows.append(Row(source: [600, 800], path: "300x0/\(halign)/bottom", box: nil, size: [300, 400]))
            // thumbor's table: 250 × 333.33; its engine truncates the height to 333.
            rows.append(Row(source: [600, 800], path: "250x0/\(halign)/bottom", box: nil, size: [250, 333]))
            rows.append(Row(source: [600, 800], path: "0x400/\(halign)/bottom", box: nil, size: [300, 400]))
            // Not here: 0x350 (thumbor's table 262.5 × 350, its engine truncating to 262; this server rounds to 263).
        }
        try check(rows)
    }

    func testMiddleAlignedRows() throws {
        try check([
            Row(source: [800, 600], path: "400x150/center/middle", box: Box(0, 75, 800, 375), size: [400, 150]),
            Row(source: [800, 300], path: "400x150/center/middle", box: nil, size: [400, 150]),
            Row(source: [800, 300], path: "400x150/right/middle", box: nil, size: [400, 150]),
            Row(source: [800, 300], path: "400x150/left/middle", box: nil, size: [400, 150]),
            Row(source: [700, 300], path: "300x150/center/middle", box: Box(50, 0, 650, 300), size: [300, 150]),
            Row(source: [700, 300], path: "300x150/left/middle", box: Box(0, 0, 600, 300), size: [300, 150]),
            Row(source: [700, 300], path: "300x150/right/middle", box: Box(100, 0, 700, 300), size: [300, 150]),
            Row(source: [700, 300], path: "150x300/center/middle", box: Box(275, 0, 425, 300), size: [150, 300]),
            Row(source: [700, 300], path: "150x300/left/middle", box: Box(0, 0, 150, 300), size: [150, 300]),
            Row(source: [700, 300], path: "150x300/right/middle", box: Box(550, 0, 700, 300), size: [150, 300]),
            // Not here: the three 350 × 700 rows boxed 234 × 700 for 200x600. This server cuts
            // one more column of the box (233 of 234) to reach 1:3 exactly; thumbor treats
            // shapes equal to two decimals as equal and squeezes the whole box instead.
            Row(source: [500, 600], path: "300x250/left/middle", box: Box(0, 27, 500, 444), size: [300, 250]),
            Row(source: [500, 600], path: "300x250/center/middle", box: Box(0, 27, 500, 444), size: [300, 250]),
            Row(source: [500, 600], path: "300x250/right/middle", box: Box(0, 27, 500, 444), size: [300, 250]),
        ])
    }

    func testTinySourcesAndSizes() throws {
        try check([
            Row(source: [1, 1], path: "0x0/left/middle", box: nil, size: [1, 1]),
            Row(source: [1, 1], path: "0x0/center/middle", box: nil, size: [1, 1]),
            Row(source: [1, 1], path: "0x0/right/middle", box: nil, size: [1, 1]),
            // thumbor's table: a resize to 0.5 × 1, which no image can have (its engine would
            // truncate the width to 0); the whole source shrinks to one pixel, uncropped.
            Row(source: [200, 400], path: "0x1/left/middle", box: nil, size: [1, 1]),
            Row(source: [200, 200], path: "16x16/left/middle", box: nil, size: [16, 16]),
        ])
    }

    func testTopAlignedRows() throws {
        var rows: [Row] = []
        for (halign, tall, narrow, inverted) in [("left", Box(0, 0, 300, 800), Box(0, 0, 30, 800), Box(0, 0, 4, 8)),
                                                 ("center", Box(150, 0, 450, 800), Box(15, 0, 45, 800), Box(1, 0, 5, 8)),
                                                 ("right", Box(300, 0, 600, 800), Box(30, 0, 60, 800), Box(2, 0, 6, 8))] {
            rows += [
                Row(source: [800, 600], path: "400x150/\(halign)/top", box: Box(0, 0, 800, 300), size: [400, 150]),
                Row(source: [600, 800], path: "150x400/\(halign)/top", box: tall, size: [150, 400]),
                Row(source: [800, 60], path: "400x15/\(halign)/top", box: Box(0, 0, 800, 30), size: [400, 15]),
                Row(source: [60, 800], path: "15x400/\(halign)/top", box: narrow, size: [15, 400]),
                Row(source: [8, 6], path: "4x2/\(halign)/top", box: Box(0, 0, 8, 4), size: [4, 2]),
                Row(source: [6, 8], path: "2x4/\(halign)/top", box: inverted, size: [2, 4]),
                Row(source: [800, 600], path: "400x300/\(halign)/top", box: nil, size: [400, 300]),
                Row(source: [800, 600], path: "800x600/\(halign)/top", box: nil, size: [800, 600]),
            ]
        }
        try check(rows)
    }

    /// The `orig` rows, with the box 200…600 × 0…400 as the manual crop: `orig` is the side of
    /// the cropped image.
    func testOrigSidesAfterTheManualCrop() throws {
        try check([
            Row(source: [800, 400], path: "400xorig", box: Box(200, 0, 600, 400), size: [400, 400]),
            Row(source: [800, 400], path: "origxorig", box: Box(200, 0, 600, 400), size: [400, 400]),
        ])
        // thumbor's table expects a resize to 800 × 100: its mock engine still says 800 × 400
        // after the crop. With a real image `orig` is the cropped 400, so thumbor's transformer
        // then cuts the middle 400 × 100 (top 150) of it and needs no resize.
        // (The description lists a resize to 400 × 100 as well, of an image already that size:
        // only the crops and the size are checked here.)
        for path in ["200x0:600x400/origx100", "200x0:600x400/origx100/smart"] {
            let (steps, target, made) = try answer(path, image: source([800, 400], box: Box(200, 0, 600, 400)))
            XCTAssertEqual(steps.filter { if case .crop = $0 { true } else { false } }, [.crop(200, 0, 600, 400), .crop(0, 150, 400, 250)], path)
            XCTAssertEqual(target, [400, 100], path)
            XCTAssertEqual(made, [400, 100], path)
        }
    }

    // MARK: - FIT_IN_CROP_DATA (test_can_fit_in)

    /// Never a crop; a resize to the table's size, or none where it says the image is left alone.
    func testFitInRowsNeverCrop() throws {
        let rows: [([Int], String, [Int]?)] = [
            ([800, 400], "fit-in/400x100", [200, 100]),
            ([1000, 250], "fit-in/500x200", [500, 125]),
            ([200, 250], "fit-in/500x400", nil),
            ([800, 400], "adaptive-fit-in/100x400", [200, 100]),
            ([800, 400], "full-fit-in/400x100", [400, 200]),
            ([200, 250], "full-fit-in/500x400", [500, 625]),
            ([800, 400], "adaptive-full-fit-in/100x400", [400, 200]),
            ([500, 500], "fit-in/250xorig", [250, 250]),
            ([500, 500], "fit-in/origx250", [250, 250]),
            ([500, 500], "fit-in/origxorig", nil),
        ]
        for (size, path, resized) in rows {
            let (steps, target, made) = try answer(path, image: source(size))
            XCTAssertEqual(steps, resized.map { [.resize($0[0], $0[1])] } ?? [], path)
            XCTAssertEqual(target, resized ?? size, path)
            XCTAssertEqual(made, resized ?? size, path)
        }
    }

    // MARK: - The one-row tests

    /// test_invalid_crop and test_get_target_dimensions: a box whose left is past its right is
    /// no crop at all (800 × 600 asked of 800 × 600 is then left alone), and the size asked
    /// stays the target (600 × 400, cut from the top of the source as `right/top` says).
    func testABackwardsBoxIsNoCrop() throws {
        let image = source([800, 600])
        let untouched = try answer("200x0:100x100/800x600/right/top", image: image)
        XCTAssertEqual(untouched.steps, [])
        XCTAssertEqual(untouched.made, [800, 600])
        let target = try answer("200x0:100x100/600x400/right/top", image: image)
        XCTAssertEqual(target.target, [600, 400])
        XCTAssertEqual(target.made, [600, 400])
        XCTAssertEqual(target.steps, [.crop(0, 0, 800, 533), .resize(600, 400)])
    }

    /// test_can_transform_with_flip: -800x-600 of 800 × 600 flips both ways, without a crop or a resize.
    func testNegativeSidesFlipBothWays() throws {
        let (steps, target, made) = try answer("-800x-600/right/top", image: source([800, 600]))
        XCTAssertEqual(steps, [.flipHorizontally, .flipVertically])
        XCTAssertEqual(target, [800, 600])
        XCTAssertEqual(made, [800, 600])
        // And the pixels really are turned about both axes.
        var pixels = PixelBuffer(width: 4, height: 2, fill: RGBA(r: 0, g: 0, b: 0))
        pixels[0, 0] = RGBA(r: 255, g: 0, b: 0)
        let flipped = try XCTUnwrap(ProcessingTransformer(options: try ThumborURLParser().parse("/unsafe/-4x-2/h/x.png").options)
            .transform(Image(pixels: pixels), forKey: ""))
        XCTAssertEqual(flipped.pixels[3, 1], RGBA(r: 255, g: 0, b: 0))
        XCTAssertEqual(flipped.pixels[0, 0], RGBA(r: 0, g: 0, b: 0))
    }

    /// test_can_resize_with_stretch: 800x200 of 800 × 600 with `stretch()` squeezes the whole
    /// source, never cropping.
    func testStretchResizesWithoutCropping() throws {
        let (steps, target, made) = try answer("800x200/right/top/filters:stretch()", image: source([800, 600]))
        XCTAssertEqual(steps, [.resize(800, 200)])
        XCTAssertEqual(target, [800, 200])
        XCTAssertEqual(made, [800, 200])
        let cropped = try answer("800x200/right/top", image: source([800, 600]))
        XCTAssertNotEqual(cropped.steps, steps, "without stretch() the same URL crops")
    }

    /// test_can_transform_meta_with_orientation: the source is turned upright by its EXIF
    /// orientation before the transformer measures it (here always; thumbor with
    /// `RESPECT_ORIENTATION`). 800 × 600 stored with orientation 6 is a 600 × 800 source, so
    /// 100x100/right/top keeps the top of its whole width (stored as it is, `right/top` would
    /// keep the right 600 × 600 instead).
    func testTheOrientationIsAppliedFirst() throws {
        var options = ImageEncodeOptions()
        options.exif = EXIFSamples.copyrightSource  // carries the orientation 6
        let coders = ImageCoders(WebImageCodecs.defaultCoders)
        let stored = try coders.encode(Image(pixels: PixelBuffer(width: 800, height: 600, fill: RGBA(r: 90, g: 90, b: 90))),
                                       as: .jpeg, options: options)
        let upright = try coders.decode(stored)
        XCTAssertEqual([upright.pixelWidth, upright.pixelHeight], [600, 800])
        let (steps, target, made) = try answer("100x100/right/top", image: upright)
        XCTAssertEqual(steps.count, 2)
        guard case let .crop(left, top, right, bottom)? = steps.first else { return XCTFail("\(steps)") }
        XCTAssertEqual([left, top, right], [0, 0, 600])
        // Scaled to 100 × 133 before the cut, the 100 rows kept are 601.5 of the source's: about 600.
        XCTAssertEqual(Double(bottom), 600, accuracy: 2)
        XCTAssertEqual(steps.last, .resize(100, 100))
        XCTAssertEqual(target, [100, 100])
        XCTAssertEqual(made, [100, 100])
    }
}
