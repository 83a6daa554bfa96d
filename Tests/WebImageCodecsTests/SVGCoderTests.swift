import Foundation
import LoopbackHTTPServer
import WebImage
import WebImageCodecs
import WebImageTestSupport
import XCTest

/// `SVGCoder` on the documents of `Tests/Fixtures/vector` (see scripts/make-svg-references.py),
/// compared with CairoSVG's drawings, drawn at asked sizes, and fed hostile documents.
final class SVGCoderTests: XCTestCase {
    private let coder = SVGCoder()
    private let vector = Fixtures.subset.root.appendingPathComponent("vector")

    private func document(_ name: String) throws -> Data {
        try Fixtures.data(vector.appendingPathComponent("svg/\(name)"))
    }

    /// Every drawable document within the manifest's tolerance of CairoSVG's drawing, at the
    /// manifest's size; every hostile one refused with an ``ImageCodingError``.
    func testTheFolderMatchesCairoSVGAndRefusesItsBombs() throws {
        struct Entry: Decodable {
            struct Tolerance: Decodable { let max: Int; let mean: Double }
            let file: String, decodes: Bool
            let width: Int?, height: Int?, tolerance: Tolerance?
        }
        struct Manifest: Decodable { let images: [Entry] }
        let manifest = try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: vector.appendingPathComponent("manifest.json")))
        XCTAssertGreaterThanOrEqual(manifest.images.filter(\.decodes).count, 9)
        for entry in manifest.images {
            let data = try Fixtures.data(vector.appendingPathComponent(entry.file))
            guard entry.decodes, let tolerance = entry.tolerance else {
                XCTAssertThrowsError(try coder.decode(data, options: ImageDecodeOptions()), entry.file) {
                    XCTAssertTrue($0 is ImageCodingError, "\(entry.file): \($0)")
                }
                continue
            }
            let image = try coder.decode(data, options: ImageDecodeOptions())
            XCTAssertEqual(image.format, .svg)
            XCTAssertEqual(try coder.readHeader(data).pixelSize, PixelSize(width: entry.width ?? 0, height: entry.height ?? 0), entry.file)
            let name = URL(fileURLWithPath: entry.file).lastPathComponent
            let reference = try PNGCoder().decode(Fixtures.data(vector.appendingPathComponent("ref/\(name).f0.png")),
                                                  options: ImageDecodeOptions()).pixels
            FormatFixtures.assertNear(image.pixels, reference, maximum: tolerance.max, mean: tolerance.mean, entry.file)
        }
    }

    /// Transparent where nothing is drawn, the document's colours where something is.
    func testTheCanvasIsTransparent() throws {
        let image = try coder.decode(document("shapes.svg"), options: ImageDecodeOptions())
        XCTAssertEqual(image.pixels[0, 0], .clear)
        XCTAssertEqual(image.pixels[30, 30], RGBA(r: 0xD6, g: 0x28, b: 0x28))
        let translucent = image.pixels[100, 35]
        XCTAssertEqual(Double(translucent.a), 0.6 * 255, accuracy: 2, "fill-opacity 0.6 is kept as alpha")
        XCTAssertEqual(Double(translucent.g), 0x9D, accuracy: 2, "colour is not premultiplied")
    }

    /// A 64 × 48 document asked for in a 640 × 640 box is drawn at 640 × 480: its edges are as
    /// sharp as at its own size (one pixel of anti-aliasing), not a small drawing enlarged.
    func testALargerBoxDrawsTheVectorLargerAndSharp() throws {
        let data = try document("viewbox_only.svg")
        let image = try coder.decode(data, options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 640, height: 640)))
        XCTAssertEqual(image.pixelWidth, 640)
        XCTAssertEqual(image.pixelHeight, 480)
        // The rectangle's left edge is at x = 4 of 64: column 40 of 640.
        XCTAssertEqual(image.pixels[38, 240].a, 0)
        XCTAssertEqual(image.pixels[41, 240].a, 255)
        let stretched = try coder.decode(data, options: ImageDecodeOptions(
            thumbnailPixelSize: PixelSize(width: 100, height: 300), preserveAspectRatio: false))
        XCTAssertEqual(PixelSize(width: stretched.pixelWidth, height: stretched.pixelHeight), PixelSize(width: 100, height: 300))
        let small = try coder.decode(data, options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(16)))
        XCTAssertEqual(PixelSize(width: small.pixelWidth, height: small.pixelHeight), PixelSize(width: 16, height: 12))
    }

    /// A document declaring 100 000 × 50 000 pixels is drawn within `maxPixels`, keeping its
    /// aspect ratio, rather than allocated or refused; its header says its own size.
    func testAHugeDeclaredSizeIsDrawnWithinThePixelLimit() throws {
        let data = Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="100000" height="50000"><rect width="100%" height="100%" fill="red"/></svg>"#.utf8)
        XCTAssertEqual(try coder.readHeader(data).pixelSize, PixelSize(width: 100_000, height: 50_000))
        let image = try coder.decode(data, options: ImageDecodeOptions(maxPixels: 20_000))
        XCTAssertEqual(image.pixelWidth, 200)
        XCTAssertEqual(image.pixelHeight, 100)
        XCTAssertEqual(image.pixels[199, 99], RGBA(r: 255, g: 0, b: 0))
        let registry = ImageCoders()
        registry.add(coder)
        XCTAssertNoThrow(try registry.decode(data, options: ImageDecodeOptions(maxPixels: 20_000, maxSourcePixels: 20_000)),
                         "a vector declares no pixels for the source limit")
    }

    /// No reference leaves the document: `file:`, `http:` and `data:` images, a style sheet's
    /// `@import` and `url()`, XInclude. The loopback origin sees no request, and the red `data:`
    /// raster that would cover the canvas is not drawn.
    func testExternalReferencesAreNeverFetched() async throws {
        let origin = try await LoopbackHTTPServer.start()
        let red = try PNGCoder().encode(Image(pixels: PixelBuffer(width: 4, height: 4, fill: RGBA(r: 255, g: 0, b: 0))),
                                        as: .png, options: ImageEncodeOptions())
        origin.route("/x.png", .bytes(red, contentType: "image/png"))
        let base = origin.url("/").absoluteString
        let svg = """
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" \
            xmlns:xi="http://www.w3.org/2001/XInclude" width="40" height="40">
            <style>@import url(\(base)style.css); rect { fill: url(\(base)paint.svg#p); }</style>
            <image href="\(base)x.png" width="40" height="40"/>
            <image xlink:href="file:///etc/hostname" width="40" height="40"/>
            <image href="data:image/png;base64,\(red.base64EncodedString())" width="40" height="40"/>
            <image xlink:href="&#100;ata:image/png;base64,\(red.base64EncodedString())" width="40" height="40"/>
            <feImage href="\(base)filter.png"/>
            <xi:include href="\(base)include.svg" parse="xml"/>
            <circle cx="20" cy="20" r="5" fill="#00ff00" style="stroke: url('\(base)s.svg#s')"/>
            </svg>
            """
        let image = try coder.decode(Data(svg.utf8), options: ImageDecodeOptions())
        try await origin.stop()
        XCTAssertEqual(origin.requestedPaths, [], "librsvg fetched nothing")
        XCTAssertEqual(image.pixels[2, 2], .clear, "no raster was drawn from any href")
        XCTAssertEqual(image.pixels[20, 20], RGBA(r: 0, g: 255, b: 0), "the document's own shapes are")
    }

    /// The serving rewrite takes out scripts, handlers, `javascript:` URLs however they are
    /// spelt, and `<use>` of other documents; it keeps the drawing and in-document references.
    func testTheServingRewriteRemovesScriptsAndHandlers() throws {
        let svg = """
            <?xml version="1.0"?>
            <!DOCTYPE svg [ <!ENTITY c "#123456"> ]>
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" onload="alert(1)" width="10" height="10">
            <script>alert(2)</script><svg:script xmlns:svg="http://www.w3.org/2000/svg"><![CDATA[alert(3)]]></svg:script>
            <a href="&#106;ava&#x73;cript:alert(4)"><rect id="r" width="5" height="5" fill="&c;" ONCLICK="alert(5)"/></a>
            <a xlink:href=" JaVaScRiPt:alert(6)"><text>link</text></a>
            <use href="#r"/><use xlink:href="https://example.com/evil.svg#x"/>
            <set attributeName="href" to="javascript:alert(7)"/>
            </svg>
            """
        let served = String(decoding: try SVGSanitizer(policy: .serving).sanitize(Data(svg.utf8)), as: UTF8.self)
        for removed in ["alert", "script", "onload", "ONCLICK", "example.com", "DOCTYPE"] {
            XCTAssertFalse(served.lowercased().contains(removed.lowercased()), "\(removed) is gone: \(served)")
        }
        for kept in [##"fill="#123456""##, ##"<use href="#r"/>"##, "<text>link</text>", ##"<rect id="r""##] {
            XCTAssertTrue(served.contains(kept), "\(kept) is kept: \(served)")
        }
        XCTAssertEqual(ImageFormat(detecting: Data(served.utf8)), .svg, "the answer is still recognised as SVG")
        XCTAssertEqual(try SVGSanitizer(policy: .serving).sanitize(Data(served.utf8)), Data(served.utf8), "a second pass changes nothing")
    }

    /// The limits refuse before any parsing: depth, element count, entity expansion, size; and
    /// quickly, whatever the document would cost to draw.
    func testTheLimitsRefuseWithTypedErrors() throws {
        let limits = SVGLimits(maxBytes: 4096, maxDepth: 8, maxElements: 20, maxEntities: 2, maxEntityExpansionBytes: 100)
        let limited = SVGCoder(limits: limits)
        func refusal(_ svg: String) -> String {
            do {
                _ = try limited.decode(Data(svg.utf8), options: ImageDecodeOptions())
                return "decoded"
            } catch let error as ImageCodingError {
                return error.description
            } catch {
                return "untyped \(error)"
            }
        }
        let open = #"<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4">"#
        XCTAssertTrue(refusal(open + String(repeating: "<g>", count: 9) + String(repeating: "</g>", count: 9) + "</svg>")
            .contains("nested more than 8"))
        XCTAssertTrue(refusal(open + String(repeating: "<rect/>", count: 20) + "</svg>").contains("more than 20 elements"))
        let entity = #"<!DOCTYPE svg [<!ENTITY a "0123456789">]>"#
        XCTAssertTrue(refusal(entity + open + "<text>" + String(repeating: "&a;", count: 11) + "</text></svg>")
            .contains("more than 100 bytes"))
        XCTAssertEqual(refusal(entity + open + "<text>" + String(repeating: "&a;", count: 10) + "</text></svg>"), "decoded")
        XCTAssertTrue(refusal(open + String(repeating: " ", count: 4096) + "</svg>").contains("over the limit of 4096"))
        XCTAssertTrue(refusal(#"<!DOCTYPE svg [<!ENTITY % p "x">]>"# + open + "</svg>").contains("parameter entity"))
        XCTAssertTrue(refusal(open + "<g></svg>").contains("closes no open element"))
        let started = ContinuousClock.now
        XCTAssertThrowsError(try coder.decode(document("bomb_billion_laughs.svg"), options: ImageDecodeOptions()))
        XCTAssertThrowsError(try coder.decode(document("bomb_deep_nesting.svg"), options: ImageDecodeOptions()))
        XCTAssertThrowsError(try coder.decode(document("bomb_use_exponential.svg"), options: ImageDecodeOptions())) {
            XCTAssertTrue("\($0)".contains("elements drawn through <use>"), "\($0)")
        }
        XCTAssertLessThan(started.duration(to: .now), .seconds(1), "bombs are refused before they are drawn")
        XCTAssertThrowsError(try coder.decode(document("bomb_filter_work.svg"), options: ImageDecodeOptions())) {
            XCTAssertTrue("\($0)".contains("filters that would run 1000 times"), "\($0)")
        }
        XCTAssertNoThrow(try coder.decode(document("bomb_filter_work.svg"), options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(100))),
                         "the same filters over 100 × 100 pixels are within the work limit")
        // A filter a style sheet lays on every element counts for every element, by rule or by CSS function.
        let rects = String(repeating: #"<rect width="2000" height="2000"/>"#, count: 40)
        let styled = { (css: String) in Data((#"<svg xmlns="http://www.w3.org/2000/svg" width="2000" height="2000"><style>"# + css + "</style>" + rects + "</svg>").utf8) }
        XCTAssertThrowsError(try coder.decode(styled("rect { filter: blur(30px) }"), options: ImageDecodeOptions())) {
            XCTAssertTrue("\($0)".contains("filters that would run"), "\($0)")
        }
        XCTAssertNoThrow(try coder.decode(styled("rect { fill: red }"), options: ImageDecodeOptions()))
    }
}
