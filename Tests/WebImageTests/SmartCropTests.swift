import WebImage
import WebImageCodecs
import WebImageTestSupport
import XCTest

/// ``SmartCrop``, ``SaliencyMap`` and ``SmartCroppingTransformer`` on a real photo placed off
/// centre on flat backgrounds.
final class SmartCropTests: XCTestCase {
    private let coders = ImageCoders(WebImageCodecs.defaultCoders)
    private static let grey = RGBA(r: 128, g: 128, b: 128)

    /// The 256 × 192 fixture photo.
    private func photo() throws -> PixelBuffer {
        try coders.decode(try Fixtures.benchData("testjfif_256.png")).pixels
    }

    /// `photo` drawn at `origin` on a flat grey canvas of `size`.
    private func canvas(_ size: PixelSize, with photo: PixelBuffer, at origin: (x: Int, y: Int)) -> PixelBuffer {
        photo.placed(on: size, at: origin, fill: Self.grey)
    }

    private func contains(_ outer: PixelRect, _ inner: PixelRect) -> Bool {
        outer.intersection(inner) == inner
    }

    func testTheCropHoldsThePhotoWhereTheCentreWouldMissIt() throws {
        let photo = try photo()
        for (size, origin) in [(PixelSize(width: 1024, height: 384), (x: 720, y: 96)),
                               (PixelSize(width: 1024, height: 384), (x: 24, y: 150)),
                               (PixelSize(width: 300, height: 900), (x: 30, y: 680))] {
            let pixels = canvas(size, with: photo, at: origin)
            let side = min(size.width, size.height)
            let region = SmartCrop.region(of: PixelSize(side), in: pixels)
            let placed = PixelRect(x: origin.x, y: origin.y, width: photo.width, height: photo.height)
            let centred = PixelRect(x: (size.width - side) / 2, y: (size.height - side) / 2, width: side, height: side)
            XCTAssertEqual([region.width, region.height], [side, side])
            XCTAssertTrue(contains(region, placed), "\(region) misses the photo at \(placed) in \(size)")
            XCTAssertFalse(contains(centred, placed), "the centre would have held it too: no test")
        }
    }

    func testAFlatImageIsCroppedAtItsCentre() {
        let flat = PixelBuffer(width: 400, height: 100, fill: RGBA(r: 30, g: 140, b: 200))
        XCTAssertEqual(SmartCrop.region(of: PixelSize(width: 100, height: 100), in: flat),
                       PixelRect(x: 150, y: 0, width: 100, height: 100))
    }

    func testTransparentPixelsDrawNoAttention() throws {
        let photo = try photo()
        var pixels = canvas(PixelSize(width: 1024, height: 256), with: photo, at: (x: 32, y: 32))
        // A second copy on the right, fully transparent: colour without coverage.
        for y in 0..<photo.height {
            for x in 0..<photo.width {
                var pixel = photo[x, y]
                pixel.a = 0
                pixels[736 + x, 32 + y] = pixel
            }
        }
        let region = SmartCrop.region(of: PixelSize(width: 320, height: 256), in: pixels)
        XCTAssertTrue(contains(region, PixelRect(x: 32, y: 32, width: 256, height: 192)), "\(region)")
    }

    func testSkinAndSaturationOutscoreGreyOfTheSameShape() {
        // Three equal flat squares on black, as bright as each other: grey, skin-coloured, saturated blue.
        var pixels = PixelBuffer(width: 600, height: 100, fill: RGBA(r: 0, g: 0, b: 0))
        let squares = [RGBA(r: 150, g: 150, b: 150), RGBA(r: 200, g: 146, b: 113), RGBA(r: 60, g: 120, b: 250)]
        for (index, colour) in squares.enumerated() {
            for y in 20..<80 { for x in 0..<60 { pixels[20 + index * 200 + x, y] = colour } }
        }
        let map = SaliencyMap(pixels)
        func interior(_ index: Int) -> Float {
            map[Int(Double(50 + index * 200) / map.cellWidth), Int(50 / map.cellHeight)]
        }
        XCTAssertLessThan(interior(0), 0.01, "flat grey has no edge, skin or saturation")
        XCTAssertGreaterThan(interior(1), 100, "skin tone")
        XCTAssertGreaterThan(interior(2), 50, "saturated blue")
        let region = SmartCrop.region(of: PixelSize(width: 100, height: 100), in: pixels)
        XCTAssertTrue(contains(region, PixelRect(x: 220, y: 20, width: 60, height: 60)), "\(region): the skin square wins")
    }

    func testTheMapIsSmallForLargeImages() {
        let large = PixelBuffer(width: 2000, height: 1500, fill: Self.grey)
        let map = SaliencyMap(large)
        XCTAssertEqual([map.width, map.height], [256, 192])
        XCTAssertEqual(map.cellWidth, 2000.0 / 256, accuracy: 1e-9)
        XCTAssertEqual(map.scores.count, 256 * 192)
        let small = SaliencyMap(PixelBuffer(width: 40, height: 30, fill: Self.grey))
        XCTAssertEqual([small.width, small.height], [40, 30], "a small image is scored as it is")
        XCTAssertEqual(SaliencyMap(PixelBuffer(width: 0, height: 0)).scores, [])
        XCTAssertEqual(SmartCrop.region(of: PixelSize(width: 50, height: 50), in: PixelBuffer(width: 0, height: 0)),
                       PixelRect(x: 0, y: 0, width: 0, height: 0))
        XCTAssertEqual(SmartCrop.region(of: PixelSize(width: 900, height: 10), in: PixelBuffer(width: 40, height: 30)),
                       PixelRect(x: 0, y: 10, width: 40, height: 10), "too wide: the whole width, centred rows")
    }

    func testTheTransformerCropsEveryFrameWhereTheFirstSays() throws {
        let photo = try photo()
        let first = canvas(PixelSize(width: 900, height: 300), with: photo, at: (x: 600, y: 60))
        let second = PixelBuffer(width: 900, height: 300, fill: RGBA(r: 10, g: 200, b: 10))
        let animation = Image(frames: [ImageFrame(pixels: first, duration: 0.1), ImageFrame(pixels: second, duration: 0.1)])
        let transformer: SmartCroppingTransformer = .smartCrop(width: 300, height: 300)
        XCTAssertEqual(transformer.key, "smartCrop(300x300)")
        let cropped = try XCTUnwrap(transformer.transform(animation, forKey: transformer.key))
        XCTAssertEqual(cropped.frames.count, 2)
        XCTAssertEqual(cropped.frames.map { [$0.pixels.width, $0.pixels.height] }, [[300, 300], [300, 300]])
        let rect = SmartCrop.region(of: PixelSize(300), in: first)
        XCTAssertEqual(cropped.frames[0].pixels, first.cropped(to: rect))
        XCTAssertEqual(cropped.frames[1].pixels, second.cropped(to: rect))
        XCTAssertGreaterThanOrEqual(rect.x, 556, "the photo's side of the canvas")
        XCTAssertNil(SmartCroppingTransformer(size: PixelSize(width: 0, height: 5)).transform(animation, forKey: ""))
    }
}
