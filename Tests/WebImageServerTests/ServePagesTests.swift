import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import WebImage
import WebImageCodecs
import WebImageServer
import WebImageTestSupport
import XCTest

/// imgproxy Pro's `page`, `pages`, `disable_animation` on a real five-frame GIF, and its
/// `hashsum` on processing URLs.
final class ServePagesTests: XCTestCase {
    private var folder: TemporaryFolder!
    private var frames: [PixelBuffer] = []

    override func setUpWithError() throws {
        WebImageCodecs.registerDefaults()
        folder = try TemporaryFolder(self)
        let root = folder.appending("images")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let gif = Fixtures.image("gif/sd_TestImage.gif")
        try FileManager.default.copyItem(at: gif, to: root.appendingPathComponent("anim.gif"))
        frames = try ImageCoders.shared.decode(Data(contentsOf: gif)).frames.map(\.pixels)
        XCTAssertEqual(frames.count, 5)
        XCTAssertNotEqual(frames[0], frames[2], "the frames differ")
    }

    func testPageAndPagesMakeAStillOfTheFramesAsked() async throws {
        let frames = frames
        try await withRouterTestServer(in: folder) { client in
            func get(_ options: String) async throws -> TestResponse {
                try await client.execute(uri: "/insecure/\(options)/plain/local:///anim.gif", method: .get)
            }
            let third = try ImageCoders.shared.decode(Data(buffer: try await get("da:1/pg:2/f:png").body))
            XCTAssertEqual(third.frames.count, 1)
            XCTAssertTrue(third.pixels == frames[2], "the third frame")
            // PNG results can be animated (APNG): disable_animation makes them still.
            let strip = try ImageCoders.shared.decode(Data(buffer: try await get("da:1/pg:1/pgs:3/f:png").body)).pixels
            XCTAssertEqual([strip.width, strip.height], [50, 150], "three frames stacked")
            let jpeg = try ImageCoders.shared.decode(Data(buffer: try await get("pgs:2/f:jpg").body)).pixels
            XCTAssertEqual([jpeg.width, jpeg.height], [50, 100], "a still output format stacks without disable_animation")
            XCTAssertTrue(strip.height == 150 && strip.cropped(to: PixelRect(x: 0, y: 50, width: 50, height: 50)) == frames[2], "the second of the strip")
            let animated = try ImageCoders.shared.decode(Data(buffer: try await get("pg:2/f:gif").body))
            XCTAssertEqual(animated.frames.count, 5, "an animated output keeps every frame")
            let still = try ImageCoders.shared.decode(Data(buffer: try await get("da:1/f:gif").body))
            XCTAssertEqual(still.frames.count, 1)
            let beyond = try await get("da:1/pg:9/f:png")
            XCTAssertEqual(beyond.status, .unprocessableContent)
        }
    }

    func testHashsumRefusesASourceOfAnotherDigest() async throws {
        let data = try Data(contentsOf: folder.appending("images/anim.gif"))
        let sha1 = Insecure.SHA1.hash(data: data).map { String(format: "%02x", $0) }.joined()
        try await withRouterTestServer(in: folder) { client in
            for (option, status) in [("hs:sha1:\(sha1)", HTTPResponse.Status.ok), ("hs:sha1:\(sha1.uppercased())", .ok),
                                     ("hs:sha1:\(String(repeating: "0", count: 40))", .unprocessableContent),
                                     ("hs:none", .ok), ("hs:sha1:abc", .badRequest)] {
                let answer = try await client.execute(uri: "/insecure/\(option)/f:png/plain/local:///anim.gif", method: .get)
                XCTAssertEqual(answer.status, status, option)
            }
        }
    }
}
