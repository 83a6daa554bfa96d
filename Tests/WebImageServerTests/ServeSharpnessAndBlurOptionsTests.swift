import Foundation
import HummingbirdTesting
import NIOCore
import WebImage
import WebImageCodecs
import WebImageServer
import WebImageTestSupport
import XCTest

/// imgproxy Pro's `unsharp_masking`, `blur_areas` and `progressive_blur` on a real photo, each
/// checked against the same URL without it: the unsharp mask is exactly the 3 × 3 kernel laid
/// over the plain result, and applies in `auto` only to a result made smaller; a blurred area
/// changes its pixels and not one outside its reach, and turns with `rotate`; a progressive blur
/// leaves what is before its start and nears the full blur at its end.
final class ServeSharpnessAndBlurOptionsTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        WebImageCodecs.registerDefaults()
        folder = try TemporaryFolder(self)
        try folder.folder("images", copying: ["photo.jpg": Fixtures.bench("testjfif_1024.jpg")])
    }

    /// The PNG result of each of `options`' URLs, decoded, in order, from a server `configure` sets up.
    private func results(_ options: [String], configure: (inout ImageServer.Configuration) -> Void = { _ in })
        async throws -> [PixelBuffer] {
        let answers = try await routerAnswers(in: folder, options.map { "/insecure/\($0)/f:png/plain/local:///photo.jpg" },
                                              configure: configure)
        for (option, answer) in zip(options, answers) {
            XCTAssertEqual(answer.status, .ok, "\(option): \(String(decoding: answer.body, as: UTF8.self))")
        }
        return try answers.map { try ImageCoders.shared.decode($0.body).pixels }
    }

    /// The mean absolute difference of the channels of `a` and `b` in `rect`.
    private static func difference(_ a: PixelBuffer, _ b: PixelBuffer, in rect: PixelRect) -> Double {
        var sum = 0, count = 0
        for y in rect.y..<(rect.y + rect.height) {
            for x in rect.x..<(rect.x + rect.width) {
                let p = a[x, y], q = b[x, y]
                sum += abs(Int(p.r) - Int(q.r)) + abs(Int(p.g) - Int(q.g)) + abs(Int(p.b) - Int(q.b))
                count += 3
            }
        }
        return Double(sum) / Double(max(count, 1))
    }

    func testUnsharpMaskIsTheKernelOverThePlainResultAndAutoNeedsADownscale() async throws {
        let out = try await results(["rs:fit:200:200", "rs:fit:200:200/ush:always:2:10", "rs:fit:200:200/ush:auto",
                                     "rs:fit:200:200/ush:auto/sh:0.5", "rs:fit:200:200/sh:0.5", "rs:fit:2000:2000", "rs:fit:2000:2000/ush:auto"])
        let plain = out[0]
        let mask = try XCTUnwrap(ConvolutionTransformer.unsharpMask(weight: 2, divider: 10))
        let expected = try XCTUnwrap(mask.transform(Image(pixels: plain), forKey: "")).pixels
        XCTAssertEqual(out[1], expected, "ush:always:2:10 is the 3 × 3 mask over the plain result")
        let standard = try XCTUnwrap(ConvolutionTransformer.unsharpMask()?.transform(Image(pixels: plain), forKey: "")).pixels
        XCTAssertEqual(out[2], standard, "auto sharpens a result made smaller, with weight 1 and divider 24")
        XCTAssertNotEqual(out[2], plain)
        XCTAssertEqual(out[3], out[4], "auto leaves a result the URL sharpens itself")
        XCTAssertEqual(out[6], out[5], "auto leaves a result that is not made smaller")
    }

    func testUnsharpMaskingSettingsAreTheDefault() async throws {
        let out = try await results(["rs:fit:200:200", "rs:fit:200:200/ush:none", "rs:fit:200:200/ush:always:2:10"]) {
            $0.output.unsharpMasking = UnsharpMasking(mode: .always, weight: 2, divider: 10)
        }
        XCTAssertEqual(out[0], out[2], "the settings' mask applies to URLs without ush")
        XCTAssertNotEqual(out[1], out[0], "ush:none turns it off")
        var settings = try ImageServer.Configuration(environment: ["IMGPROXY_UNSHARP_MASKING_MODE": "auto",
                                                                  "IMGPROXY_UNSHARP_MASKING_WEIGHT": "1.5",
                                                                  "IMGPROXY_UNSHARP_MASKING_DIVIDER": "20"])
        XCTAssertEqual(settings.output.unsharpMasking, UnsharpMasking(mode: .auto, weight: 1.5, divider: 20))
        XCTAssertThrowsError(try ImageServer.Configuration(environment: ["IMGPROXY_UNSHARP_MASKING_MODE": "sometimes"]))
        XCTAssertThrowsError(try ImageServer.Configuration(environment: ["IMGPROXY_UNSHARP_MASKING_DIVIDER": "0"]))
        settings = ImageServer.Configuration()
        XCTAssertEqual(settings.output.unsharpMasking.mode, .none, "off unless set, as imgproxy's open-source edition")
    }

    func testBlurAreasChangeTheirAreaOnlyAndTurnWithTheImage() async throws {
        let out = try await results(["rs:fit:200:200", "rs:fit:200:200/ba:4:0.5:0:0.5:1",
                                     "rot:90/rs:fit:200:200", "rot:90/rs:fit:200:200/ba:4:0:0:0.5:1"])
        let (plain, rightBlurred, turned, turnedBlurred) = (out[0], out[1], out[2], out[3])
        let width = plain.width, height = plain.height
        // The area starts at the middle column; the blur reaches no pixel left of it.
        XCTAssertEqual(Self.difference(plain, rightBlurred, in: PixelRect(x: 0, y: 0, width: width / 2 - 1, height: height)), 0)
        XCTAssertGreaterThan(Self.difference(plain, rightBlurred, in: PixelRect(x: width / 2 + 1, y: 0, width: width / 2 - 1, height: height)), 2)
        // The source's left half is the top half once turned clockwise.
        let turnedHeight = turned.height
        XCTAssertEqual(Self.difference(turned, turnedBlurred,
                                       in: PixelRect(x: 0, y: turnedHeight / 2 + 1, width: turned.width, height: turnedHeight / 2 - 1)), 0)
        XCTAssertGreaterThan(Self.difference(turned, turnedBlurred, in: PixelRect(x: 0, y: 0, width: turned.width, height: turnedHeight / 2 - 1)), 2)
    }

    func testProgressiveBlurGrowsFromItsStartToTheFullBlur() async throws {
        let out = try await results(["rs:fit:200:200", "rs:fit:200:200/pbl:6:down:0.5:1", "rs:fit:200:200/bl:6", "rs:fit:200:200/pbl:6:right"])
        let (plain, down, blurred, right) = (out[0], out[1], out[2], out[3])
        let width = plain.width, height = plain.height
        XCTAssertEqual(Self.difference(plain, down, in: PixelRect(x: 0, y: 0, width: width, height: height / 2 - 1)), 0,
                       "nothing before the start")
        let bottom = PixelRect(x: 0, y: height - 3, width: width, height: 3)
        XCTAssertLessThan(Self.difference(blurred, down, in: bottom), 1.5, "the full blur at the end")
        XCTAssertGreaterThan(Self.difference(plain, down, in: bottom), 3)
        let leftColumns = PixelRect(x: 0, y: 0, width: 3, height: height), rightColumns = PixelRect(x: width - 3, y: 0, width: 3, height: height)
        XCTAssertLessThan(Self.difference(plain, right, in: leftColumns), 1, "right: the left side sharp")
        XCTAssertLessThan(Self.difference(blurred, right, in: rightColumns), 1.5, "and the right side blurred")
    }

    func testArgumentsOutsideTheirRangesAreRefused() async throws {
        try await withRouterTestServer(in: folder) { client in
            for option in ["ush:often", "ush:auto:0", "ush:auto:1:-2", "ba:4:0.5:0:0.5", "ba:4:0:0:2:1", "ba:1000:0:0:1:1",
                           "pbl:4:sideways", "pbl:4:down:2", "ush:a:1:1:1"] {
                let answer = try await client.execute(uri: "/insecure/\(option)/plain/local:///photo.jpg", method: .get)
                XCTAssertEqual(answer.status, .badRequest, option)
            }
        }
    }
}
