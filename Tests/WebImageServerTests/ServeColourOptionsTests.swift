import Foundation
import HummingbirdTesting
import NIOCore
import WebImage
import WebImageCodecs
import WebImageServer
import WebImageTestSupport
import XCTest

/// imgproxy Pro's colour options on a real photo, each checked by a pixel statistic that holds
/// only if the operation ran: monochrome and zero saturation leave R = G = B, brightness moves
/// every channel by its amount, duotone puts every pixel between its two colours, colorize and
/// gradient lay their colour where they say, background_alpha leaves the background translucent.
final class ServeColourOptionsTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        WebImageCodecs.registerDefaults()
        folder = try TemporaryFolder(self)
        let root = folder.appending("images")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Fixtures.bench("testjfif_1024.jpg"), to: root.appendingPathComponent("photo.jpg"))
        // Left half opaque mid grey, right half fully transparent.
        var cutout = PixelBuffer(width: 40, height: 20)
        for y in 0..<20 { for x in 0..<20 { cutout[x, y] = RGBA(r: 100, g: 100, b: 100) } }
        try ImageCoders.shared.encode(Image(pixels: cutout), as: .png).write(to: root.appendingPathComponent("cutout.png"))
    }

    /// The PNG result of each of `options`' URLs for `source`, decoded, in order.
    private func results(_ options: [String], source: String = "photo.jpg") async throws -> [PixelBuffer] {
        let answers = try await routerAnswers(in: folder, options.map { "/insecure/\($0)/f:png/plain/local:///\(source)" })
        for (option, answer) in zip(options, answers) {
            XCTAssertEqual(answer.status, .ok, "\(option): \(String(decoding: answer.body, as: UTF8.self))")
        }
        return try answers.map { try ImageCoders.shared.decode($0.body).pixels }
    }

    /// Every pixel's R, G, B and A.
    private static func pixels(_ buffer: PixelBuffer) -> [SIMD4<Int>] {
        var pixels: [SIMD4<Int>] = []
        pixels.reserveCapacity(buffer.width * buffer.height)
        for offset in stride(from: 0, to: buffer.bytes.count, by: 4) {
            let bytes = buffer.bytes
            pixels.append(SIMD4<Int>(Int(bytes[offset]), Int(bytes[offset + 1]), Int(bytes[offset + 2]), Int(bytes[offset + 3])))
        }
        return pixels
    }

    func testMonochromeAndZeroSaturationAreGreyAndBrightnessAddsItsAmount() async throws {
        let resize = "rs:fit:200:200"
        let out = try await results([resize, "\(resize)/mc:1", "\(resize)/sa:0", "\(resize)/br:40", "\(resize)/a:-30::", "\(resize)/mc:1:ff8000"])
        let (base, mono, grey, bright, dark, orange) = (Self.pixels(out[0]), Self.pixels(out[1]), Self.pixels(out[2]),
                                                         Self.pixels(out[3]), Self.pixels(out[4]), Self.pixels(out[5]))
        XCTAssertTrue(mono.allSatisfy { $0.x == $0.y && $0.y == $0.z }, "monochrome with its grey default is grey")
        XCTAssertTrue(grey.allSatisfy { abs($0.x - $0.y) <= 1 && abs($0.y - $0.z) <= 1 }, "saturation 0 is grey")
        XCTAssertFalse(base.allSatisfy { $0.x == $0.y && $0.y == $0.z }, "the photo has colour")
        for (shifted, amount) in [(bright, 40), (dark, -30)] {
            let expected = base.map { pixel in
                SIMD4<Int>(min(max(pixel.x + amount, 0), 255), min(max(pixel.y + amount, 0), 255), min(max(pixel.z + amount, 0), 255), pixel.w)
            }
            XCTAssertTrue(zip(shifted, expected).allSatisfy { $0 == $1 }, "brightness \(amount) is added to every channel")
        }
        // Shades of orange: G is half of R (to rounding) and B is 0 wherever R is not.
        XCTAssertTrue(orange.allSatisfy { $0.z == 0 && abs(2 * $0.y - $0.x) <= 2 }, "monochrome in orange")
    }

    func testContrastDuotoneAndColorize() async throws {
        let resize = "rs:fit:200:200"
        let out = try await results([resize, "\(resize)/co:0", "\(resize)/co:2", "\(resize)/dt:1:ff0000:0000ff", "\(resize)/col:0.5:00ff00"])
        let (base, flat, strong, duo, green) = (Self.pixels(out[0]), Self.pixels(out[1]), Self.pixels(out[2]), Self.pixels(out[3]), Self.pixels(out[4]))
        XCTAssertTrue(flat.allSatisfy { $0 == SIMD4(128, 128, 128, 255) }, "contrast 0 is mid grey")
        func spread(_ pixels: [SIMD4<Int>]) -> Double {
            let values = pixels.map { Double($0.x) }, mean = values.reduce(0, +) / Double(values.count)
            return (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)).squareRoot()
        }
        XCTAssertGreaterThan(spread(strong), spread(base) * 1.5, "contrast 2 spreads the values")
        XCTAssertTrue(duo.allSatisfy { $0.y == 0 && abs($0.x + $0.z - 255) <= 1 }, "every pixel between red and blue")
        XCTAssertTrue(zip(green, base).allSatisfy { ours, original in
            let red = abs(2 * ours.x - original.x) <= 2, blue = abs(2 * ours.z - original.z) <= 2
            let green = abs(2 * ours.y - original.y - 255) <= 2
            return red && green && blue && ours.w == 255
        }, "half of green over every pixel")
    }

    func testGradientGrowsTowardItsDirection() async throws {
        let out = try await results(["rs:fit:200:200", "rs:fit:200:200/gr:1", "rs:fit:200:200/gr:1:fff:right:0.5:1"])
        let (base, down, right) = (out[0], out[1], out[2])
        func row(_ buffer: PixelBuffer, _ y: Int) -> [RGBA] { (0..<buffer.width).map { buffer[$0, y] } }
        func column(_ buffer: PixelBuffer, _ x: Int) -> [RGBA] { (0..<buffer.height).map { buffer[x, $0] } }
        XCTAssertTrue(row(down, down.height - 1).allSatisfy { $0.r <= 3 && $0.g <= 3 && $0.b <= 3 }, "black at the bottom")
        XCTAssertTrue(zip(row(down, 0), row(base, 0)).allSatisfy { abs(Int($0.r) - Int($1.r)) <= 3 }, "the photo at the top")
        XCTAssertTrue(column(right, right.width - 1).allSatisfy { $0.r >= 252 && $0.g >= 252 && $0.b >= 252 }, "white at the right")
        XCTAssertTrue(zip(column(right, right.width / 2 - 2), column(base, base.width / 2 - 2)).allSatisfy { $0 == $1 },
                      "nothing before the start")
    }

    func testColorizeKeepsAlphaWhenAskedAndBackgroundAlphaIsTranslucent() async throws {
        let out = try await results(["col:0.5:ff0000", "col:0.5:ff0000:1", "bg:0000ff/bga:0.5"], source: "cutout.png")
        let (covering, keeping, translucent) = (out[0], out[1], out[2])
        XCTAssertEqual(covering[30, 10], RGBA(r: 255, g: 0, b: 0, a: 128), "the overlay shows where the image is transparent")
        XCTAssertEqual(covering[5, 10], RGBA(r: 178, g: 50, b: 50, a: 255))
        XCTAssertEqual(keeping[30, 10].a, 0, "keep_alpha leaves transparency alone")
        XCTAssertEqual(keeping[5, 10], RGBA(r: 178, g: 50, b: 50, a: 255))
        XCTAssertEqual(translucent[30, 10], RGBA(r: 0, g: 0, b: 255, a: 128))
        XCTAssertEqual(translucent[5, 10], RGBA(r: 100, g: 100, b: 100, a: 255))
    }

    /// `resizing_algorithm:nearest` enlarges without a new colour; the default Lanczos-3 blends
    /// the edge between the opaque and the transparent half.
    func testResizingAlgorithm() async throws {
        let out = try await results(["rs:force:120:60:1", "rs:force:120:60:1/ra:nearest"], source: "cutout.png")
        let colours = { (buffer: PixelBuffer) in Set((0..<buffer.width).map { buffer[$0, 30] }) }
        XCTAssertEqual(colours(out[1]), [RGBA(r: 100, g: 100, b: 100), RGBA(r: 0, g: 0, b: 0, a: 0)])
        XCTAssertGreaterThan(colours(out[0]).count, 2)
    }

    func testArgumentsOutsideTheirRangesAreRefused() async throws {
        try await withRouterTestServer(in: folder) { client in
            for option in ["br:300", "mc:2", "dt:0.5:nothex", "co:-1", "gr:1:000:sideways", "bga:2", "a:1:2:3:4", "ra:bicubic"] {
                let answer = try await client.execute(uri: "/insecure/\(option)/plain/local:///photo.jpg", method: .get)
                XCTAssertEqual(answer.status, .badRequest, option)
            }
        }
    }
}
