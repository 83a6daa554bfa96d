import Foundation
import HummingbirdTesting
import NIOCore
import WebImage
import WebImageCodecs
@testable import WebImageServer
import WebImageTestSupport
import XCTest

/// imgproxy Pro's `watermark_text`, in process: Pango markup drawn through librsvg's Pango and
/// laid as the watermark (its ink where the gravity puts it, in the markup's colour, larger for
/// a larger size), and markup that is not Pango's subset, or too large, refused.
final class ServeWatermarkTextTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        WebImageCodecs.registerDefaults()
        folder = try TemporaryFolder(self)
        let root = try folder.folder("images", copying: [:])
        try ImageCoders.shared.encode(Image(pixels: PixelBuffer(width: 300, height: 100, fill: .white)), as: .png)
            .write(to: root.appendingPathComponent("white.png"))
    }

    /// The box `x,y,w,h` of the pixels darker than 200 in some channel, and the mean colour of those pixels.
    private static func ink(_ pixels: PixelBuffer) -> (box: [Int], mean: SIMD3<Double>) {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1, sum = SIMD3<Double>(), count = 0.0
        for y in 0..<pixels.height {
            for x in 0..<pixels.width {
                let p = pixels[x, y]
                guard min(p.r, p.g, p.b) < 200 else { continue }
                minX = min(minX, x); minY = min(minY, y); maxX = max(maxX, x); maxY = max(maxY, y)
                sum += SIMD3(Double(p.r), Double(p.g), Double(p.b))
                count += 1
            }
        }
        return (maxX < 0 ? [] : [minX, minY, maxX - minX + 1, maxY - minY + 1], count > 0 ? sum / count : SIMD3())
    }

    func testTextIsDrawnWhereTheGravitySaysInItsStyle() async throws {
        let plain = "wmt:" + URLSafeBase64.encode("Hello".utf8)
        let big = "wmt:" + URLSafeBase64.encode("<span size=\"40pt\" foreground=\"#ff0000\">Hello</span>".utf8)
        let answers = try await routerAnswers(in: folder, ["wm:1:nowe/\(plain)", "wm:1:soea/\(plain)", "wm:1:nowe/\(big)", plain].map {
            "/insecure/\($0)/f:png/plain/local:///white.png"
        })
        XCTAssertTrue(answers.allSatisfy { $0.status == .ok }, answers.map { String(decoding: $0.body, as: UTF8.self) }.joined())
        let pixels = try answers.map { try ImageCoders.shared.decode($0.body).pixels }
        let west = Self.ink(pixels[0]), east = Self.ink(pixels[1]), red = Self.ink(pixels[2])
        XCTAssertEqual(west.box.count, 4, "the text is drawn")
        XCTAssertEqual(Array(west.box.prefix(2)), [0, 0], "its ink from the north-west corner")
        XCTAssertTrue((30...80).contains(west.box[2]) && (8...20).contains(west.box[3]), "five letters at 16 pixels: \(west.box)")
        XCTAssertEqual(east.box[0] + east.box[2], 300, "south-east: to the right edge")
        XCTAssertEqual(east.box[1] + east.box[3], 100, "and the bottom")
        XCTAssertLessThan(west.mean.x, 120, "black by default")
        XCTAssertGreaterThan(red.box[2], west.box[2] * 2, "40 points is larger")
        XCTAssertGreaterThan(red.mean.x, red.mean.z + 80, "in red")
        XCTAssertEqual(Self.ink(pixels[3]).box, [], "without a watermark no text is laid")
    }

    func testMarkupOutsidePangosSubsetOrTooLargeIsRefused() async throws {
        let refused = ["<script>x</script>", "<b>open", "</i>", "<span onload=\"x\">a</span>", "<span size=\"9000pt\">a</span>",
                       "<span font_family=\"a;b\">x</span>", "&bogus;", String(repeating: "a", count: 1001), "<b x=\"1\">a</b>",
                       "<span foreground=\"url(#x)\">a</span>"]
        for markup in refused { XCTAssertThrowsError(try WatermarkText(markup: markup), markup) }
        let drawn = try WatermarkText(markup: "a &amp; <b>b</b>\n<i>c</i> &#x263A; &lt;tag&gt;")
        XCTAssertEqual(drawn.lines.count, 2)
        XCTAssertEqual(drawn.lines[0].map(\.text), ["a & ", "b"])
        XCTAssertTrue(drawn.lines[0][1].style.bold)
        let svg = String(decoding: drawn.svg(), as: UTF8.self)
        XCTAssertTrue(svg.contains("&lt;tag&gt;"), "text is escaped: \(svg)")
        let answers = try await routerAnswers(in: folder, ["/insecure/wm:1/wmt:" + URLSafeBase64.encode("<blink>a</blink>".utf8) + "/plain/local:///white.png"])
        XCTAssertEqual(answers[0].status, .badRequest)
    }
}
