import Foundation
import WebImage
import NIOHTTP1
import WebImageCodecs
import WebImageServer
import WebImageTestSupport
import XCTest

/// imgproxy's trim, sharpen and pixelate, and its output options (`format_quality`,
/// `max_bytes`, `skip_processing`, `raw`, and those accepted without effect), through a real
/// `webimage serve` on loopback.
final class ServeImgproxyFilterTests: ServeTestCase {
    private var base = ""

    override func setUp() async throws {
        try await super.setUp()
        origin.route("/frames.png", .bytes(try ImgproxyTestImages.png(ImgproxyTestImages.frames), contentType: "image/png"))
        origin.route("/bands.png", .bytes(try ImgproxyTestImages.png(ImgproxyTestImages.bands(bottom: RGBA(r: 0, g: 0, b: 255))),
                                          contentType: "image/png"))
        origin.route("/clear.png", .bytes(try ImgproxyTestImages.png(ImgproxyTestImages.bands(bottom: .clear)), contentType: "image/png"))
        origin.route("/geometry.png", .bytes(try ImgproxyTestImages.png(ImgproxyTestImages.geometry), contentType: "image/png"))
        base = try await serve(["--allow-loopback-sources"])
    }

    private func response(_ options: String, _ file: String, suffix: String = "@png") async throws
        -> (status: Int, headers: HTTPHeaders, body: Data) {
        try await get(base + "/insecure/\(options)/plain/\(origin.url("/\(file)").absoluteString)\(suffix)")
    }

    private func served(_ options: String, _ file: String, line: UInt = #line) async throws -> PixelBuffer {
        let answer = try await response(options, file)
        XCTAssertEqual(answer.status, 200, "\(options): " + String(decoding: answer.body, as: UTF8.self), line: line)
        return try ImageCoders.shared.decode(answer.body).pixels
    }

    /// imgproxy's trim_test.go TestThreshold, TestColor and TestAlpha.
    func testTrimTables() async throws {
        let table: [(String, String, Int, Int)] = [
            ("t:5", "frames.png", 320, 220), ("t:100", "frames.png", 290, 190), ("t:150", "frames.png", 260, 160),
            ("t:200", "frames.png", 230, 130), ("t:220", "frames.png", 200, 100), ("t:0:ff0000", "frames.png", 350, 250),
            ("t:5::1", "frames.png", 330, 220), ("t:5:::1", "frames.png", 320, 230), ("trim:5::1:1", "frames.png", 330, 230),
            ("t:1", "bands.png", 200, 170), ("t:1:ff0000", "bands.png", 200, 170), ("t:1:0000ff", "bands.png", 200, 130),
            ("t:1:ffffff", "bands.png", 200, 200), ("t:1:ff00ff", "clear.png", 200, 130),
        ]
        for (options, file, width, height) in table {
            let pixels = try await served(options, file)
            XCTAssertEqual("\(pixels.width)x\(pixels.height)", "\(width)x\(height)", "\(options) of \(file)")
        }
        // The trim comes before the resize: the trimmed core is what fills the box.
        let resized = try await served("t:220/rs:fit:100:100", "frames.png")
        XCTAssertEqual([resized.width, resized.height], [100, 50])
        XCTAssertEqual(resized[50, 25], RGBA(r: 0, g: 0, b: 0))
    }

    func testSharpenRaisesEdgeContrastAndPixelateMakesBlocks() async throws {
        let plain = try await served("w:200", "bands.png")
        let sharp = try await served("sh:2", "bands.png")
        // Just above the red-green edge (row 30), red gains and green loses.
        XCTAssertEqual(plain[100, 28], RGBA(r: 255, g: 0, b: 0))
        XCTAssertEqual(sharp[100, 28].r, 255)
        XCTAssertEqual(sharp[100, 28].g, 0, "sharpening pushes green below 0 there, clamped")
        XCTAssertLessThan(sharp[100, 31].r, 1)
        XCTAssertEqual(sharp[100, 100], RGBA(r: 0, g: 255, b: 0), "flat areas stay")
        let blocks = try await served("pix:8", "geometry.png")
        XCTAssertEqual([blocks.width, blocks.height], [200, 100])
        XCTAssertEqual(blocks[0, 0], blocks[7, 7])
        XCTAssertNotEqual(blocks[7, 7], blocks[8, 8])
        XCTAssertEqual(blocks[0, 0].r, 4, "the mean of 0…7")
    }

    func testSkipProcessingAndRawAnswerTheSourceBytes() async throws {
        let source = try ImgproxyTestImages.png(ImgproxyTestImages.geometry)
        let skipped = try await response("rs:fit:50:50/skp:png", "geometry.png", suffix: "")
        XCTAssertEqual(skipped.status, 200)
        XCTAssertEqual(skipped.body, source)
        let converted = try await response("rs:fit:50:50/skp:jpg", "geometry.png", suffix: "")
        XCTAssertEqual(try ImageCoders.shared.decode(converted.body).pixelWidth, 50, "a format not listed is processed")
        let raw = try await response("rs:fit:50:50/raw:1", "geometry.png", suffix: "@webp")
        XCTAssertEqual(raw.body, source, "raw answers the source as it is, and ignores the extension")
        XCTAssertEqual(raw.headers.first(name: "Content-Type"), "image/png")
    }

    /// imgproxy's TestSkipProcessingConfig, …SameFormat, …DifferentFormat: the server's
    /// `--skip-processing-formats` answer such sources as they are unless another format is
    /// asked; a URL's `skp` replaces the server's list.
    func testSkipProcessingFormatsOfTheServer() async throws {
        let source = try ImgproxyTestImages.png(ImgproxyTestImages.geometry)
        let skipping = try await serve(["--allow-loopback-sources", "--skip-processing-formats", "png"])
        let url = origin.url("/geometry.png").absoluteString
        for suffix in ["", "@png"] {
            let same = try await get(skipping + "/insecure/rs:fill:4:4/plain/\(url)\(suffix)")
            XCTAssertEqual(same.body, source, suffix)
        }
        let other = try await get(skipping + "/insecure/rs:fill:4:4/plain/\(url)@jpg")
        XCTAssertEqual(other.headers.first(name: "Content-Type"), "image/jpeg")
        XCTAssertEqual(try ImageCoders.shared.decode(other.body).pixelWidth, 4)
        let replaced = try await get(skipping + "/insecure/rs:fill:4:4/skp:jpg/plain/\(url)")
        XCTAssertEqual(try ImageCoders.shared.decode(replaced.body).pixelWidth, 4, "the URL's list replaces the server's")
    }

    /// imgproxy's flatten_test.go, its 32-bit BMP rows: `rs:fill:300:300/el:1/pd:100` in JPEG
    /// and PNG, with and without `bg`. JPEG flattens the transparent half and the padding onto
    /// the background (white without one); PNG keeps them transparent unless `bg` is given.
    /// (Its other rows check 16-bit and grey outputs; this server writes 8-bit RGB(A), see the
    /// URL options article.)
    func testFlatteningATransparentBMP() async throws {
        origin.route("/alpha.bmp", .bytes(ImgproxyTestImages.bmpWithAlpha, contentType: "image/bmp"))
        let cases: [(String, RGBA, RGBA)] = [
            ("f:jpg/bg:255:0:0", RGBA(r: 255, g: 0, b: 0), RGBA(r: 255, g: 0, b: 0)),
            ("f:png/bg:255:0:0", RGBA(r: 255, g: 0, b: 0), RGBA(r: 255, g: 0, b: 0)),
            ("f:jpg", RGBA(r: 255, g: 255, b: 255), RGBA(r: 255, g: 255, b: 255)),
            ("f:png", .clear, .clear),
        ]
        for (options, padding, transparentHalf) in cases {
            let answer = try await response("rs:fill:300:300/el:1/pd:100/\(options)", "alpha.bmp", suffix: "")
            XCTAssertEqual(answer.status, 200, options)
            let pixels = try ImageCoders.shared.decode(answer.body).pixels
            XCTAssertEqual([pixels.width, pixels.height], [500, 500], options)
            // JPEG is lossy: a few levels either way.
            for (x, y, expected) in [(10, 10, padding), (400, 250, transparentHalf), (150, 250, RGBA(r: 0, g: 0, b: 255))] {
                let got = pixels[x, y]
                XCTAssertLessThanOrEqual(max(abs(Int(got.r) - Int(expected.r)), abs(Int(got.g) - Int(expected.g)),
                                             abs(Int(got.b) - Int(expected.b)), abs(Int(got.a) - Int(expected.a))), 6,
                                         "\(options) at \(x), \(y): \(got)")
            }
        }
    }

    /// imgproxy's flatten_test.go, its PNG rows: `rs:fill:300:300/el:1/pd:100/f:png` over grey
    /// (127) and red, of 8- and 16-bit RGBA and grey-with-alpha sources (PngSuite's
    /// `basn6a08`, `basn6a16`, `basn4a08`, `basn4a16`, whose alpha runs from clear to opaque).
    /// The result is flat: opaque everywhere, the padding the background, a grey source over
    /// grey still grey, and red showing through where the source is clear. imgproxy also keeps
    /// 16-bit and grey interpretations; this server writes 8-bit RGB (see the URL options article).
    func testFlatteningPNGsOfEveryDepth() async throws {
        for name in ["basn6a08", "basn6a16", "basn4a08", "basn4a16"] {
            origin.route("/\(name).png", .bytes(try Fixtures.data(Fixtures.image("png/pngsuite_\(name).png")), contentType: "image/png"))
        }
        let grey = RGBA(r: 127, g: 127, b: 127), red = RGBA(r: 255, g: 0, b: 0)
        for name in ["basn6a08", "basn6a16", "basn4a08", "basn4a16"] {
            for (background, colour) in [("127:127:127", grey), ("255:0:0", red)] {
                let row = "\(name) over \(background)"
                let pixels = try await served("rs:fill:300:300/el:1/pd:100/bg:\(background)", "\(name).png")
                XCTAssertEqual([pixels.width, pixels.height], [500, 500], row)
                XCTAssertEqual(pixels[10, 10], colour, "\(row): the padding")
                var opaque = true, greyStaysGrey = true, redShows = false
                for y in stride(from: 100, to: 400, by: 7) {
                    for x in stride(from: 100, to: 400, by: 7) {
                        let pixel = pixels[x, y]
                        opaque = opaque && pixel.a == 255
                        greyStaysGrey = greyStaysGrey && abs(Int(pixel.r) - Int(pixel.g)) <= 1 && abs(Int(pixel.g) - Int(pixel.b)) <= 1
                        redShows = redShows || Int(pixel.r) > Int(pixel.g) + 100
                    }
                }
                XCTAssertTrue(opaque, "\(row): flattened")
                if name.hasPrefix("basn4"), colour == grey { XCTAssertTrue(greyStaysGrey, "\(row): grey") }
                if colour == red { XCTAssertTrue(redShows, "\(row): the background shows through") }
            }
        }
    }

    /// imgproxy's TestPresetUsage through a request: the `default` preset applies to a URL
    /// that names none (`default=pixelate:10`: the result differs from the source, in blocks).
    func testTheDefaultPresetAppliesToEveryURL() async throws {
        let pixelating = try await serve(["--allow-loopback-sources", "--preset", "default=pixelate:10"])
        let answer = try await get(pixelating + "/insecure/plain/\(origin.url("/geometry.png").absoluteString)@png")
        XCTAssertEqual(answer.status, 200)
        let blocks = try ImageCoders.shared.decode(answer.body).pixels
        XCTAssertNotEqual(blocks, ImgproxyTestImages.geometry)
        XCTAssertEqual(blocks[0, 0], blocks[9, 9], "one 10-pixel block")
        XCTAssertNotEqual(blocks[9, 9], blocks[10, 10])
    }

    func testMaxBytesLowersTheQualityUntilTheResultFits() async throws {
        let full = try await response("q:95", "frames.png", suffix: "@jpg")
        let limited = try await response("q:95/mb:6000", "frames.png", suffix: "@jpg")
        XCTAssertEqual(limited.status, 200)
        XCTAssertGreaterThan(full.body.count, 6000, "the limit must bite for the test to mean anything")
        XCTAssertLessThanOrEqual(limited.body.count, 6000)
        let byFormat = try await response("fq:jpg:10:webp:90", "frames.png", suffix: "@jpg")
        let defaultQuality = try await response("w:350", "frames.png", suffix: "@jpg")
        XCTAssertLessThan(byFormat.body.count, defaultQuality.body.count, "fq:jpg:10 writes a smaller JPEG than the default 80")
        let quality = try await response("fq:jpg:10/q:95", "frames.png", suffix: "@jpg")
        XCTAssertEqual(quality.body, full.body, "quality overrides format_quality")
    }

    /// imgproxy's TestQualitySettings: with `--quality 99`, `q:99` and a URL without quality
    /// are the same near-copy of the source; `q:1` and `fq:jpg:1` the same far one.
    func testTheServersQualityIsTheDefaultOfURLs() async throws {
        let fine = try await serve(["--allow-loopback-sources", "--quality", "99"])
        let source = try ImageCoders.shared.decode(try Fixtures.data(Fixtures.bench("testjfif_1024.jpg"))).pixels
        var bodies: [String: Data] = [:]
        for options in ["q:99", "w:0", "q:1", "fq:jpg:1"] {
            let answer = try await get(fine + "/insecure/\(options)/plain/\(origin.url("/photo.jpg").absoluteString)@jpg")
            XCTAssertEqual(answer.status, 200, options)
            bodies[options] = answer.body
        }
        XCTAssertEqual(bodies["w:0"], bodies["q:99"], "the server's quality when the URL gives none")
        XCTAssertEqual(bodies["fq:jpg:1"], bodies["q:1"])
        func distance(_ options: String) throws -> Double {
            let pixels = try ImageCoders.shared.decode(try XCTUnwrap(bodies[options])).pixels
            XCTAssertEqual([pixels.width, pixels.height], [source.width, source.height])
            let total = zip(pixels.bytes, source.bytes).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
            return Double(total) / Double(source.bytes.count)
        }
        let near = try distance("q:99"), far = try distance("q:1")
        XCTAssertLessThan(near, 1.5, "q:99 is a near copy")
        XCTAssertGreaterThan(far, 5 * near, "q:1 is far from it")
    }

    /// imgproxy's TestSourceFormatNotSupported and TestResultingFormatNotSupported, as a black
    /// box sees them here: a source in a format no decoder reads (PDF) and a result format no
    /// encoder writes (`@bmp`) are 422; a name that is no format at all is a bad URL.
    func testFormatsThatCannotBeReadOrWrittenAre422() async throws {
        origin.route("/image.pdf", .bytes(Data("%PDF-1.4\n%\u{E2}\u{E3}\n1 0 obj\n<<>>\nendobj\n".utf8), contentType: "application/pdf"))
        let source = try await response("rs:fill:4:4", "image.pdf", suffix: "")
        XCTAssertEqual(source.status, 422, String(decoding: source.body, as: UTF8.self))
        for (suffix, status) in [("@bmp", 422), ("@tiff", 200), ("@xyz", 400)] {
            let result = try await response("rs:fill:4:4", "geometry.png", suffix: suffix)
            XCTAssertEqual(result.status, status, suffix + ": " + String(decoding: result.body, as: UTF8.self))
        }
    }

    func testCompatibilityOptionsAreAccepted() async throws {
        let plain = try await response("w:100", "geometry.png")
        for options in ["ph:1", "preserve_hdr:0", "kcr:0", "eth:1", "enforce_thumbnail:0", "dpi:300", "scp:1",
                        "keep_copyright:1", "strip_color_profile:0", "mw:10", "z:1"] {
            let answer = try await response("w:100/\(options)", "geometry.png")
            XCTAssertEqual(answer.status, 200, options)
            XCTAssertEqual(try ImageCoders.shared.decode(answer.body).pixels, try ImageCoders.shared.decode(plain.body).pixels, options)
        }
        let zoomed = try await served("w:100/z:0.5", "geometry.png")
        XCTAssertEqual([zoomed.width, zoomed.height], [50, 25])
        let tall = try await served("w:100/mh:80", "geometry.png")
        XCTAssertEqual([tall.width, tall.height], [100, 80], "min-height scales to 160 × 80, then the width is cropped to 100")
        for bad in ["pd:-1", "fl:x", "t:300", "fq:jpg", "fq:bmpx:10", "mb:-5", "z:0", "ex:1:sm", "pix:x", "sh:-1", "skp:nope"] {
            let answer = try await response(bad, "geometry.png")
            XCTAssertEqual(answer.status, 400, bad)
        }
    }

    /// imgproxy's strip_color_profile: by default the pixels become sRGB with no profile;
    /// `scp:0` keeps the source's ICC profile, written into the result again.
    func testStripColorProfileZeroKeepsTheProfile() async throws {
        origin.route("/profiled.jpg", .bytes(try Fixtures.colorData("swapped.jpg"), contentType: "image/jpeg"))
        let keep = ImageDecodeOptions(colorManagement: .preserve)
        let stripped = try await response("w:40", "profiled.jpg", suffix: "@png")
        XCTAssertNil(try ImageCoders.shared.decode(stripped.body, options: keep).colorProfile)
        let kept = try await response("w:40/scp:0", "profiled.jpg", suffix: "@png")
        XCTAssertEqual(kept.status, 200)
        XCTAssertNotNil(try ImageCoders.shared.decode(kept.body, options: keep).colorProfile)
    }
}
