import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import WebImage
import WebImageCodecs
@testable import WebImageServer
import WebImageTestSupport
import XCTest

/// imgproxy Pro's `watermark_url`, `watermark_size`, `watermark_rotate`, `watermark_shadow` and
/// `fallback_image_url`, in process: a 20 × 10 blue mark named by the URL laid over a white
/// 200 × 100 source, its box read from the pixels.
final class ServeWatermarkOptionsTests: XCTestCase {
    private static let blue = RGBA(r: 0, g: 0, b: 255), white = RGBA(r: 255, g: 255, b: 255)
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        WebImageCodecs.registerDefaults()
        folder = try TemporaryFolder(self)
        let root = try folder.folder("images", copying: [:])
        try ImageCoders.shared.encode(Image(pixels: PixelBuffer(width: 200, height: 100, fill: Self.white)), as: .png)
            .write(to: root.appendingPathComponent("white.png"))
        try ImageCoders.shared.encode(Image(pixels: PixelBuffer(width: 20, height: 10, fill: Self.blue)), as: .png)
            .write(to: root.appendingPathComponent("blue.png"))
    }


    private static let mark = "wmu:" + URLSafeBase64.encode("local:///blue.png".utf8)

    /// The PNG results of `options`' URLs for the white source, decoded, in order.
    private func results(_ options: [String]) async throws -> [PixelBuffer] {
        let answers = try await routerAnswers(in: folder, options.map { "/insecure/\($0)/f:png/plain/local:///white.png" })
        for (option, answer) in zip(options, answers) {
            XCTAssertEqual(answer.status, .ok, "\(option): \(String(decoding: answer.body, as: UTF8.self))")
        }
        return try answers.map { try ImageCoders.shared.decode($0.body).pixels }
    }

    /// The box `x,y,w,h` of the pixels bluer than they are red (the mark, antialiased edges included).
    private static func markBox(_ pixels: PixelBuffer) -> String {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in 0..<pixels.height {
            for x in 0..<pixels.width where Int(pixels[x, y].b) - Int(pixels[x, y].r) > 64 {
                minX = min(minX, x)
                minY = min(minY, y)
                maxX = max(maxX, x)
                maxY = max(maxY, y)
            }
        }
        return maxX < 0 ? "none" : "\(minX),\(minY),\(maxX - minX + 1),\(maxY - minY + 1)"
    }

    func testTheURLsMarkIsLaidOnlyWithAWatermark() async throws {
        let out = try await results(["wm:1:nowe/\(Self.mark)", Self.mark, "wm:1:soea/\(Self.mark)"])
        XCTAssertEqual(Self.markBox(out[0]), "0,0,20,10")
        XCTAssertEqual(out[0].box(of: Self.blue).count, 200, "solid blue")
        XCTAssertEqual(Self.markBox(out[1]), "none", "watermark_url alone lays nothing")
        XCTAssertEqual(Self.markBox(out[2]), "180,90,20,10")
    }

    func testSizeRotationAndShadow() async throws {
        let out = try await results(["wm:1:nowe/\(Self.mark)/wms:40:0", "wm:1:nowe/\(Self.mark)/wms:0:5", "wm:1:nowe:0:0:0.5/\(Self.mark)/wms:40:0",
                                     "wm:1:nowe/\(Self.mark)/wmr:90", "wm:1:nowe/\(Self.mark)/wmr:45", "wm:1:ce/\(Self.mark)/wmsh:3",
                                     "wm:1:nowe/\(Self.mark)/wms:16384:16384"])
        XCTAssertEqual(Self.markBox(out[0]), "0,0,40,20", "enlarged to the box's width")
        XCTAssertEqual(Self.markBox(out[1]), "0,0,10,5", "shrunk to its height")
        XCTAssertEqual(Self.markBox(out[2]), "0,0,100,50", "the watermark's scale wins over the size")
        XCTAssertEqual(Self.markBox(out[3]), "0,0,10,20", "a quarter turn")
        let turned = Self.markBox(out[4]).split(separator: ",").compactMap { Int($0) }
        XCTAssertEqual(turned.count, 4)
        XCTAssertTrue((19...24).contains(turned[2]) && (19...24).contains(turned[3]), "45°: about (20 + 10) / √2 a side, \(turned)")
        // The shadow's canvas grows by 9 each side, 38 × 28, centred as imgproxy centres: at
        // (162 + 1) / 2 rounded half to even, 82, and 36; the mark 9 in from there.
        let shadowed = out[5]
        XCTAssertEqual(Self.markBox(shadowed), "91,45,20,10", "the mark in the middle of its shadow")
        XCTAssertLessThan(Int(shadowed[100, 57].r), 230, "a shadow just below the mark")
        XCTAssertEqual(shadowed[100, 80], Self.white, "and none far from it")
        XCTAssertEqual(Self.markBox(out[6]), "0,0,200,100", "a box past the result is bounded by its pixels")
    }

    func testAFallbackImageURLStandsInForAMissingSource() async throws {
        let fallback = "fiu:" + URLSafeBase64.encode("local:///blue.png".utf8)
        try await withRouterTestServer(in: folder) { client in
            let missing = try await client.execute(uri: "/insecure/rs:fit:10:10/f:png/plain/local:///missing.png", method: .get)
            XCTAssertEqual(missing.status, .notFound)
            let standIn = try await client.execute(uri: "/insecure/rs:fit:10:10/\(fallback)/f:png/plain/local:///missing.png", method: .get)
            XCTAssertEqual(standIn.status, .ok)
            XCTAssertEqual(standIn.headers[HTTPFields.Element.Name("Fallback-Image")!], "1")
            let pixels = try ImageCoders.shared.decode(Data(buffer: standIn.body)).pixels
            XCTAssertEqual([pixels.width, pixels.height], [10, 5], "processed as the source would have been")
            XCTAssertEqual(pixels[5, 2], Self.blue)
            let bothMissing = "fiu:" + URLSafeBase64.encode("local:///gone.png".utf8)
            let answer = try await client.execute(uri: "/insecure/\(bothMissing)/plain/local:///missing.png", method: .get)
            XCTAssertEqual(answer.status, .notFound, "a fallback that cannot be fetched answers the source's error")
            for bad in ["wmu:not%20base64", "fiu:" + URLSafeBase64.encode("no scheme".utf8), "wms:-1:0", "wmr:7200", "wmsh:1000"] {
                let refused = try await client.execute(uri: "/insecure/\(bad)/plain/local:///white.png", method: .get)
                XCTAssertEqual(refused.status, .badRequest, bad)
            }
        }
    }

    func testAWatermarkURLGoesThroughTheSourcePolicy() async throws {
        let outside = "wmu:" + URLSafeBase64.encode("local:///../secret.png".utf8)
        try await withRouterTestServer(in: folder) { client in
            let answer = try await client.execute(uri: "/insecure/wm:1/\(outside)/plain/local:///white.png", method: .get)
            XCTAssertNotEqual(answer.status, .ok, "a mark outside the local root is refused as a source would be")
        }
    }
}
