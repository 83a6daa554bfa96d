import WebImage
import WebImageTestSupport
import XCTest

/// Each transformer checked on pixels, plus keys, pipelines and animated images.
final class TransformerTests: XCTestCase {
    /// Pixel (x, y) is `(8x, 8y, 100)`: every pixel of a small buffer is distinct.
    private func pattern(width: Int, height: Int) -> PixelBuffer {
        var pixels = PixelBuffer(width: width, height: height)
        for y in 0..<height { for x in 0..<width { pixels[x, y] = RGBA(r: UInt8(x * 8), g: UInt8(y * 8), b: 100) } }
        return pixels
    }

    /// Left third red, middle green, right blue.
    private func stripes(width: Int, height: Int) -> PixelBuffer {
        var pixels = PixelBuffer(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                pixels[x, y] = x < width / 3 ? RGBA(r: 255, g: 0, b: 0)
                    : x < 2 * width / 3 ? RGBA(r: 0, g: 255, b: 0) : RGBA(r: 0, g: 0, b: 255)
            }
        }
        return pixels
    }

    private func apply(_ transformer: some ImageTransformer, to pixels: PixelBuffer) throws -> PixelBuffer {
        try XCTUnwrap(transformer.transform(Image(pixels: pixels), forKey: "k")).pixels
    }

    func testKeysAreStableAndReadable() {
        XCTAssertEqual(ResizingTransformer.resize(width: 256, height: 256, mode: .aspectFit).key, "resize(256x256,aspectFit)")
        XCTAssertEqual(ResizingTransformer.resize(width: 200).key, "resize(200w)")
        XCTAssertEqual(ResizingTransformer.resize(height: 100).key, "resize(100h)")
        XCTAssertEqual(ResizingTransformer.resize(width: 100.0, height: 50.0, scale: 2, mode: .aspectFill).key,
                       "resize(200x100,aspectFill,@2x)")
        XCTAssertEqual(CroppingTransformer.crop(PixelRect(x: 1, y: 2, width: 30, height: 40)).key, "crop(1,2,30x40)")
        XCTAssertEqual(RoundCornerTransformer.roundCorner(radius: 16).key, "roundCorner(16,all)")
        XCTAssertEqual(RoundCornerTransformer.roundCorner(radius: 8.5, corners: [.topLeft, .bottomRight], borderWidth: 2,
                                                          borderColor: RGBA(r: 255, g: 0, b: 0)).key,
                       "roundCorner(8.5,topLeft+bottomRight,border:2,#FF0000FF)")
        XCTAssertEqual(RotationTransformer.rotate(radians: .pi / 2).key, "rotate(90deg,fit)")
        XCTAssertEqual(RotationTransformer.rotate(degrees: -30, fitSize: false).key, "rotate(-30deg,crop)")
        XCTAssertEqual(FlippingTransformer.flip(horizontal: true).key, "flip(horizontal)")
        XCTAssertEqual(FlippingTransformer.flip(horizontal: true, vertical: true).key, "flip(horizontal,vertical)")
        XCTAssertEqual(TintTransformer.tint(RGBA(r: 0, g: 128, b: 255, a: 200), fraction: 0.5).key, "tint(#0080FFC8,0.5)")
        XCTAssertEqual(GaussianBlurTransformer.blur(radius: 4).key, "blur(4)")
        XCTAssertEqual(GrayscaleTransformer.grayscale.key, "grayscale")
        XCTAssertEqual(ClosureTransformer.custom(key: "mine(1)") { $0 }.key, "mine(1)")
    }

    func testResizeFillStretchesToTheSize() throws {
        let out = try apply(.resize(width: 30, height: 30, mode: .fill), to: stripes(width: 90, height: 30))
        XCTAssertEqual([out.width, out.height], [30, 30])
        assertClose(out[2, 15], RGBA(r: 255, g: 0, b: 0))
        assertClose(out[15, 15], RGBA(r: 0, g: 255, b: 0))
        assertClose(out[27, 15], RGBA(r: 0, g: 0, b: 255))
    }

    func testResizeAspectFitLettersBoxesWithTransparency() throws {
        let out = try apply(.resize(width: 30, height: 30, mode: .aspectFit), to: stripes(width: 90, height: 30))
        XCTAssertEqual([out.width, out.height], [30, 30])
        // 90×30 fits as 30×10, centred: rows 10..<20 hold the image.
        XCTAssertEqual(out[15, 0], .clear)
        XCTAssertEqual(out[15, 29], .clear)
        assertClose(out[2, 15], RGBA(r: 255, g: 0, b: 0))
        assertClose(out[15, 15], RGBA(r: 0, g: 255, b: 0))
    }

    func testResizeAspectFillCropsTheOverflow() throws {
        let out = try apply(.resize(width: 30, height: 30, mode: .aspectFill), to: stripes(width: 90, height: 30))
        XCTAssertEqual([out.width, out.height], [30, 30])
        // Only the middle 30×30 (the green stripe) is visible.
        for x in [0, 15, 29] { assertClose(out[x, 15], RGBA(r: 0, g: 255, b: 0), "column \(x)") }
    }

    /// Red grows with the distance from the vertical centre line, green with the distance from
    /// the horizontal one: the buffer is its own mirror image both ways, so only a centred crop
    /// of it is too.
    private func mirrored(width: Int, height: Int) -> PixelBuffer {
        var pixels = PixelBuffer(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                pixels[x, y] = RGBA(r: UInt8(abs(2 * x - (width - 1)) * 250 / max(1, width - 1)),
                                    g: UInt8(abs(2 * y - (height - 1)) * 250 / max(1, height - 1)), b: 100)
            }
        }
        return pixels
    }

    func testResizeAspectFillCropsEquallyOnBothSides() throws {
        // Up and down, with odd and even differences between the crop and the source.
        let cases: [(source: (Int, Int), target: (Int, Int))] = [
            ((10, 10), (20, 30)), ((10, 10), (30, 20)), ((9, 10), (20, 20)), ((10, 10), (21, 35)),
            ((101, 100), (50, 50)), ((102, 100), (50, 50)), ((100, 103), (40, 40)), ((90, 31), (30, 30)),
        ]
        for (source, target) in cases {
            let out = try apply(.resize(width: target.0, height: target.1, mode: .aspectFill),
                                to: mirrored(width: source.0, height: source.1))
            XCTAssertEqual([out.width, out.height], [target.0, target.1])
            func differs(_ a: RGBA, _ b: RGBA) -> Bool { abs(Int(a.r) - Int(b.r)) > 1 || abs(Int(a.g) - Int(b.g)) > 1 }
            var uneven: [String] = []
            for y in 0..<out.height {
                for x in 0..<out.width {
                    if differs(out[x, y], out[out.width - 1 - x, y]) { uneven.append("(\(x), \(y)) left-right") }
                    if differs(out[x, y], out[x, out.height - 1 - y]) { uneven.append("(\(x), \(y)) top-bottom") }
                }
            }
            XCTAssertEqual(uneven, [], "\(source.0)x\(source.1) to \(target.0)x\(target.1): not mirrored at \(uneven.prefix(4))")
        }
    }

    func testResizeByOneSideKeepsTheAspectRatioAndPointsUseTheScale() throws {
        let source = Image(pixels: stripes(width: 200, height: 100))
        let wide = try XCTUnwrap(ResizingTransformer.resize(width: 50).transform(source, forKey: "k"))
        XCTAssertEqual([wide.pixelWidth, wide.pixelHeight], [50, 25])
        let tall = try XCTUnwrap(ResizingTransformer.resize(height: 20).transform(source, forKey: "k"))
        XCTAssertEqual([tall.pixelWidth, tall.pixelHeight], [40, 20])
        let points = try XCTUnwrap(ResizingTransformer.resize(width: 50.0, height: 25.0, scale: 2).transform(source, forKey: "k"))
        XCTAssertEqual([points.pixelWidth, points.pixelHeight], [100, 50])
        XCTAssertEqual(points.scale, 2)
        XCTAssertEqual(points.width, 50)
    }

    func testCropKeepsTheRectangleAndClipsIt() throws {
        let source = pattern(width: 30, height: 20)
        let out = try apply(.crop(PixelRect(x: 10, y: 5, width: 12, height: 8)), to: source)
        XCTAssertEqual([out.width, out.height], [12, 8])
        XCTAssertEqual(out[0, 0], source[10, 5])
        XCTAssertEqual(out[11, 7], source[21, 12])
        let clipped = try apply(.crop(PixelRect(x: 25, y: 15, width: 50, height: 50)), to: source)
        XCTAssertEqual([clipped.width, clipped.height], [5, 5])
        XCTAssertEqual(clipped[4, 4], source[29, 19])
        XCTAssertEqual(source.cropped(to: PixelRect(x: 25, y: 15, width: 50, height: 50)), clipped)
        XCTAssertEqual(source.cropped(to: PixelRect(x: -5, y: 0, width: 3, height: 3)).bytes.count, 0)
        XCTAssertNil(CroppingTransformer.crop(PixelRect(x: 40, y: 0, width: 5, height: 5))
            .transform(Image(pixels: source), forKey: "k"))
    }

    func testRoundCornersAreTransparentAndTheBorderHasItsColour() throws {
        let red = RGBA(r: 255, g: 0, b: 0), blue = RGBA(r: 0, g: 0, b: 255)
        let source = PixelBuffer(width: 64, height: 48, fill: red)
        let out = try apply(.roundCorner(radius: 16, borderWidth: 4, borderColor: blue), to: source)
        XCTAssertEqual([out.width, out.height], [64, 48])
        for (x, y) in [(0, 0), (63, 0), (0, 47), (63, 47), (2, 2)] {
            XCTAssertEqual(out[x, y].a, 0, "corner pixel (\(x), \(y))")
        }
        for (x, y) in [(32, 0), (32, 3), (0, 24), (63, 24), (32, 47)] {
            XCTAssertEqual(out[x, y], blue, "border pixel (\(x), \(y))")
        }
        XCTAssertEqual(out[32, 4], red, "first pixel inside the border")
        XCTAssertEqual(out[32, 24], red, "centre")
        // The arc is anti-aliased: along the diagonal some pixel is partly covered.
        let diagonal = (0..<16).map { out[$0, $0].a }
        XCTAssertTrue(diagonal.contains { $0 > 0 && $0 < 255 }, "no partly covered pixel on the arc: \(diagonal)")
    }

    /// Corners 40 across and 10 down (thumbor's `round_corner(40|10,…)`): long and flat.
    func testEllipticalCornersAreWiderThanTall() throws {
        let source = PixelBuffer(width: 100, height: 60, fill: RGBA(r: 255, g: 0, b: 0))
        let transformer = RoundCornerTransformer.roundCorner(radius: 40, verticalRadius: 10)
        XCTAssertEqual(transformer.key, "roundCorner(40|10,all)")
        let out = try apply(transformer, to: source)
        for (x, y) in [(0, 0), (10, 1), (89, 1), (10, 58), (99, 59)] {
            XCTAssertEqual(out[x, y].a, 0, "outside the ellipse at (\(x), \(y))")
        }
        for (x, y) in [(1, 10), (50, 0), (98, 49), (50, 30)] {
            XCTAssertEqual(out[x, y].a, 255, "inside at (\(x), \(y))")
        }
        let circular = try apply(.roundCorner(radius: 40), to: source)
        XCTAssertEqual(circular[1, 10].a, 0, "circular corners clamped to 30 reach further down")
    }

    func testOnlyTheChosenCornersAreRounded() throws {
        let source = PixelBuffer(width: 40, height: 40, fill: RGBA(r: 10, g: 200, b: 30))
        let out = try apply(.roundCorner(radius: 10, corners: [.topLeft, .bottomRight]), to: source)
        XCTAssertEqual(out[0, 0].a, 0)
        XCTAssertEqual(out[39, 39].a, 0)
        XCTAssertEqual(out[39, 0], source[39, 0])
        XCTAssertEqual(out[0, 39], source[0, 39])
    }

    func testQuarterTurnsMovePixelsExactly() throws {
        let source = pattern(width: 5, height: 3)
        let left = try apply(.rotate(degrees: 90), to: source)
        XCTAssertEqual([left.width, left.height], [3, 5])
        let right = try apply(.rotate(radians: -.pi / 2), to: source)
        let half = try apply(.rotate(degrees: 180), to: source)
        for y in 0..<3 {
            for x in 0..<5 {
                // Counter-clockwise: the top-right corner comes to the top left.
                XCTAssertEqual(left[y, 4 - x], source[x, y], "90° of (\(x), \(y))")
                XCTAssertEqual(right[2 - y, x], source[x, y], "-90° of (\(x), \(y))")
                XCTAssertEqual(half[4 - x, 2 - y], source[x, y], "180° of (\(x), \(y))")
            }
        }
    }

    func testSampledRotationMapsPixelsAndLeavesCornersTransparent() throws {
        // A quarter turn without fitting goes through bilinear sampling; at whole-pixel
        // positions it must still land exactly.
        let source = pattern(width: 6, height: 4)
        let turned = try apply(.rotate(degrees: 90, fitSize: false), to: source)
        XCTAssertEqual([turned.width, turned.height], [6, 4])
        // Canvas 6×4 holding the 4×6 rotated image centred: output (1 + y, 4 - x) shows source (x, y).
        for y in 0..<4 { for x in 1..<5 { XCTAssertEqual(turned[1 + y, 4 - x], source[x, y], "(\(x), \(y))") } }
        XCTAssertEqual(turned[0, 0].a, 0)

        let square = PixelBuffer(width: 20, height: 20, fill: RGBA(r: 200, g: 50, b: 50))
        let fitted = try apply(.rotate(degrees: 45), to: square)
        XCTAssertEqual([fitted.width, fitted.height], [29, 29])
        XCTAssertEqual(fitted[0, 0].a, 0)
        XCTAssertEqual(fitted[14, 14], square[0, 0])
        let cropped = try apply(.rotate(degrees: 45, fitSize: false), to: square)
        XCTAssertEqual([cropped.width, cropped.height], [20, 20])
        XCTAssertEqual(cropped[0, 0].a, 0)
        XCTAssertEqual(cropped[10, 10], square[0, 0])
        // The colour of partly covered edge pixels is not darkened by the transparent outside.
        for y in 0..<29 { for x in 0..<29 where fitted[x, y].a > 16 { assertClose(fitted[x, y], RGBA(r: 200, g: 50, b: 50, a: fitted[x, y].a), tolerance: 3) } }
    }

    func testFlipMirrorsColumnsAndRows() throws {
        let source = pattern(width: 4, height: 3)
        let horizontal = try apply(.flip(horizontal: true), to: source)
        let vertical = try apply(.flip(vertical: true), to: source)
        let both = try apply(.flip(horizontal: true, vertical: true), to: source)
        for y in 0..<3 {
            for x in 0..<4 {
                XCTAssertEqual(horizontal[3 - x, y], source[x, y])
                XCTAssertEqual(vertical[x, 2 - y], source[x, y])
                XCTAssertEqual(both[3 - x, 2 - y], source[x, y])
            }
        }
        XCTAssertNil(FlippingTransformer.flip().transform(Image(pixels: source), forKey: "k"))
    }

    func testTintChangesTheHueAndKeepsAlpha() throws {
        var source = PixelBuffer(width: 2, height: 1)
        source[0, 0] = RGBA(r: 20, g: 40, b: 220)
        source[1, 0] = RGBA(r: 20, g: 40, b: 220, a: 90)
        let red = RGBA(r: 255, g: 0, b: 0)
        let full = try apply(.tint(red), to: source)
        XCTAssertEqual(full[0, 0], red)
        XCTAssertEqual(full[1, 0], RGBA(r: 255, g: 0, b: 0, a: 90))
        let half = try apply(.tint(red, fraction: 0.5), to: source)
        assertClose(half[0, 0], RGBA(r: 138, g: 20, b: 110), tolerance: 1)
        XCTAssertEqual(half[1, 0].a, 90)
        XCTAssertGreaterThan(half[0, 0].r, half[0, 0].b, "blue turned towards red")
        // A half-transparent tint: source-in (SDWebImage's default since 5.20) paints its colour
        // and halves the alpha; source-atop (its blend before) moves colours half-way, alpha kept.
        let glass = RGBA(r: 255, g: 0, b: 0, a: 128)
        let sourceIn = try apply(.tint(glass), to: source)
        assertClose(sourceIn[0, 0], RGBA(r: 255, g: 0, b: 0, a: 128), tolerance: 1)
        assertClose(sourceIn[1, 0], RGBA(r: 255, g: 0, b: 0, a: 45), tolerance: 1)
        let sourceAtop = try apply(.tint(glass, blendMode: .sourceAtop), to: source)
        assertClose(sourceAtop[0, 0], RGBA(r: 138, g: 20, b: 110, a: 255), tolerance: 1)
        XCTAssertEqual(sourceAtop[1, 0].a, 90)
        XCTAssertEqual(TintTransformer.tint(glass, blendMode: .sourceAtop).key, "tint(#FF000080,1,sourceAtop)")
    }

    func testBlurSmoothsAStepEdge() throws {
        var source = PixelBuffer(width: 40, height: 6, fill: RGBA(r: 0, g: 0, b: 0))
        for y in 0..<6 { for x in 20..<40 { source[x, y] = RGBA(r: 255, g: 255, b: 255) } }
        let out = try apply(.blur(radius: 2), to: source)
        let row = (0..<40).map { Int(out[$0, 3].r) }
        XCTAssertEqual(row[0], 0)
        XCTAssertEqual(row[39], 255)
        XCTAssertTrue(zip(row, row.dropFirst()).allSatisfy { $0 <= $1 }, "not monotonic: \(row)")
        XCTAssertTrue((60...195).contains(row[19]) && (60...195).contains(row[20]), "edge not smoothed: \(row)")
        XCTAssertLessThan(row[16], 20)
        XCTAssertGreaterThan(row[23], 235)
        XCTAssertTrue((0..<40).allSatisfy { out[$0, 3].a == 255 })
    }

    func testBlurDoesNotDarkenNextToTransparency() throws {
        var source = PixelBuffer(width: 20, height: 4)
        for y in 0..<4 { for x in 0..<10 { source[x, y] = RGBA(r: 250, g: 250, b: 250) } }
        let out = try apply(.blur(radius: 1.5), to: source)
        for x in 0..<20 where out[x, 2].a > 8 { XCTAssertGreaterThanOrEqual(out[x, 2].r, 247, "pixel \(x): \(out[x, 2])") }
        XCTAssertGreaterThan(out[10, 2].a, 0)
        XCTAssertLessThan(out[10, 2].a, 255)
    }

    func testGrayscaleEqualisesChannelsAndKeepsAlpha() throws {
        var source = PixelBuffer(width: 3, height: 1)
        source[0, 0] = RGBA(r: 255, g: 0, b: 0)
        source[1, 0] = RGBA(r: 0, g: 255, b: 0, a: 128)
        source[2, 0] = RGBA(r: 10, g: 100, b: 250, a: 7)
        let out = try apply(.grayscale, to: source)
        XCTAssertEqual(out[0, 0], RGBA(r: 76, g: 76, b: 76))
        XCTAssertEqual(out[1, 0], RGBA(r: 150, g: 150, b: 150, a: 128))
        XCTAssertEqual(out[2, 0], RGBA(r: 90, g: 90, b: 90, a: 7))
    }

    func testPipelineJoinsKeysAndAppliesInOrder() throws {
        let source = pattern(width: 6, height: 4)
        let cropThenTurn = PipelineTransformer.pipeline([.crop(PixelRect(x: 0, y: 0, width: 3, height: 1)), .rotate(degrees: 90)])
        let turnThenCrop = PipelineTransformer.pipeline([.rotate(degrees: 90), .crop(PixelRect(x: 0, y: 0, width: 3, height: 1))])
        XCTAssertEqual(cropThenTurn.key, "crop(0,0,3x1)-rotate(90deg,fit)")
        XCTAssertEqual(turnThenCrop.key, "rotate(90deg,fit)-crop(0,0,3x1)")
        let a = try apply(cropThenTurn, to: source)
        let b = try apply(turnThenCrop, to: source)
        XCTAssertEqual([a.width, a.height], [1, 3])
        XCTAssertEqual([b.width, b.height], [3, 1])
        XCTAssertEqual(a[0, 0], source[2, 0])
        XCTAssertEqual(b[0, 0], source[5, 0])
        // A step that does not apply makes the whole pipeline not apply.
        XCTAssertNil(PipelineTransformer.pipeline([.grayscale, .flip()]).transform(Image(pixels: source), forKey: "k"))
    }

    func testClosureTransformerCallsItsFunction() throws {
        let invert = ClosureTransformer.custom(key: "invert") { image in
            image.mappingFrames { pixels in
                var out = pixels
                for i in out.bytes.indices where i % 4 != 3 { out.bytes[i] = 255 - out.bytes[i] }
                return out
            }
        }
        let out = try apply(invert, to: PixelBuffer(width: 1, height: 1, fill: RGBA(r: 5, g: 6, b: 7, a: 8)))
        XCTAssertEqual(out[0, 0], RGBA(r: 250, g: 249, b: 248, a: 8))
    }

    func testAnimatedImagesAreTransformedFrameByFrame() throws {
        let frames = (0..<3).map { i in
            ImageFrame(pixels: PixelBuffer(width: 20, height: 10, fill: RGBA(r: UInt8(60 * i), g: 10, b: 10)),
                       duration: [0.1, 0.2, 0.3][i])
        }
        let animation = Image(frames: frames, scale: 2, format: .gif, loopCount: 4)
        let transformers: [any ImageTransformer] = [
            .resize(width: 10), .crop(PixelRect(x: 0, y: 0, width: 5, height: 5)), .roundCorner(radius: 3),
            .rotate(degrees: 30), .flip(horizontal: true), .tint(RGBA(r: 0, g: 0, b: 255), fraction: 0.5),
            .blur(radius: 1), .grayscale, .pipeline([.grayscale, .resize(height: 4)]),
        ]
        for transformer in transformers {
            let out = try XCTUnwrap(transformer.transform(animation, forKey: "k"), transformer.key)
            XCTAssertEqual(out.frames.count, 3, transformer.key)
            XCTAssertEqual(out.durations, [0.1, 0.2, 0.3], transformer.key)
            XCTAssertEqual(out.loopCount, 4, transformer.key)
            XCTAssertEqual(out.format, .gif, transformer.key)
            XCTAssertEqual(out.frames[1].pixels, transformer.transform(Image(pixels: frames[1].pixels), forKey: "k")?.pixels,
                           "\(transformer.key): frame 1 differs from the frame transformed alone")
        }
    }

    func testEmptyImagesAreLeftAlone() {
        let empty = Image(pixels: PixelBuffer(width: 0, height: 0))
        let transformers: [any ImageTransformer] = [
            .resize(width: 10), .crop(PixelRect(x: 0, y: 0, width: 5, height: 5)), .roundCorner(radius: 3),
            .rotate(degrees: 30), .blur(radius: 1),
        ]
        for transformer in transformers { XCTAssertNil(transformer.transform(empty, forKey: "k"), transformer.key) }
    }
}
