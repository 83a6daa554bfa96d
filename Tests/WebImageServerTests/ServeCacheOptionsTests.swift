import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import WebImage
import WebImageCodecs
import WebImageServer
import WebImageTestSupport
import XCTest

/// imgproxy Pro's `bypass_cache` and `cache_tags`: a source replaced on disk shows through a
/// bypassing URL only, which leaves the cached result as it was; bypassing is refused unless
/// allowed; tags are answered in the headers the format names, and hostile ones are refused.
final class ServeCacheOptionsTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        WebImageCodecs.registerDefaults()
        folder = try TemporaryFolder(self)
        try folder.folder("images", copying: [:])
        try writeSource(RGBA(r: 255, g: 0, b: 0))
    }

    /// Writes `images/square.png`, 16 × 16 of `colour`.
    private func writeSource(_ colour: RGBA) throws {
        let pixels = PixelBuffer(width: 16, height: 16, fill: colour)
        try ImageCoders.shared.encode(Image(pixels: pixels), as: .png).write(to: folder.appending("images").appendingPathComponent("square.png"))
    }

    private static let cacheTag = HTTPFields.Element.Name("Cache-Tag")!
    private static let amazonCacheTag = HTTPFields.Element.Name("X-Amz-Meta-Cache-Tag")!

    /// The centre colour of `answer`'s image.
    private static func colour(_ answer: TestResponse) throws -> RGBA {
        let pixels = try ImageCoders.shared.decode(Data(buffer: answer.body)).pixels
        return pixels[pixels.width / 2, pixels.height / 2]
    }

    func testBypassCacheMakesAFreshResultAndLeavesTheCachedOne() async throws {
        let images = folder.appending("images")
        try await withRouterTestServer(in: folder, configure: { $0.urls.allowBypassCache = true }) { client in
            let plain = "/insecure/rs:fit:8:8/f:png/plain/local:///square.png"
            let bypassing = "/insecure/rs:fit:8:8/bc:1/f:png/plain/local:///square.png"
            let first = try await client.execute(uri: plain, method: .get)
            XCTAssertEqual(try Self.colour(first), RGBA(r: 255, g: 0, b: 0))
            let pixels = PixelBuffer(width: 16, height: 16, fill: RGBA(r: 0, g: 0, b: 255))
            try ImageCoders.shared.encode(Image(pixels: pixels), as: .png).write(to: images.appendingPathComponent("square.png"))
            let cached = try await client.execute(uri: plain, method: .get)
            XCTAssertEqual(try Self.colour(cached), RGBA(r: 255, g: 0, b: 0), "the result cache answers")
            let fresh = try await client.execute(uri: bypassing, method: .get)
            XCTAssertEqual(fresh.status, .ok)
            XCTAssertEqual(try Self.colour(fresh), RGBA(r: 0, g: 0, b: 255), "bypass_cache reads the source again")
            let after = try await client.execute(uri: plain, method: .get)
            XCTAssertEqual(try Self.colour(after), RGBA(r: 255, g: 0, b: 0), "and does not replace the cached result")
            let off = try await client.execute(uri: "/insecure/rs:fit:8:8/bc:0/f:png/plain/local:///square.png", method: .get)
            XCTAssertEqual(try Self.colour(off), RGBA(r: 255, g: 0, b: 0), "bc:0 reads the cache")
        }
    }

    func testBypassCacheIsRefusedUnlessAllowed() async throws {
        try await withRouterTestServer(in: folder) { client in
            let refused = try await client.execute(uri: "/insecure/bc:1/plain/local:///square.png", method: .get)
            XCTAssertEqual(refused.status, .forbidden)
            XCTAssertTrue(String(buffer: refused.body).contains("bypass_cache"), String(buffer: refused.body))
            let off = try await client.execute(uri: "/insecure/bc:0/plain/local:///square.png", method: .get)
            XCTAssertEqual(off.status, .ok)
        }
        let settings = try ImageServer.Configuration(environment: ["IMGPROXY_ALLOW_BYPASS_CACHE": "true"])
        XCTAssertTrue(settings.urls.allowBypassCache)
    }

    func testCacheTagsAreAnsweredInTheFormatsHeaders() async throws {
        let tagged = "/insecure/ct:product-12:shop_7:product-12/plain/local:///square.png"
        try await withRouterTestServer(in: folder) { client in
            let answer = try await client.execute(uri: tagged, method: .get)
            XCTAssertEqual(answer.headers[Self.cacheTag], "product-12,shop_7")
            XCTAssertEqual(answer.headers[Self.amazonCacheTag], "product-12,shop_7")
            let again = try await client.execute(uri: "/insecure/ct:other/plain/local:///square.png", method: .get)
            XCTAssertEqual(again.headers[Self.cacheTag], "other", "a cached result is answered with its URL's tags")
            let untagged = try await client.execute(uri: "/insecure/plain/local:///square.png", method: .get)
            XCTAssertNil(untagged.headers[Self.cacheTag])
            for hostile in ["ct:a%20b", "ct:a%2Cb", "ct:%22", "ct:a%0D%0AX-Evil:1", "ct:" + String(repeating: "t", count: 129)] {
                let refused = try await client.execute(uri: "/insecure/\(hostile)/plain/local:///square.png", method: .get)
                XCTAssertEqual(refused.status, .badRequest, hostile)
            }
        }
        try await withRouterTestServer(in: folder, configure: { $0.answers.cacheTagsFormat = .cloudflare }) { client in
            let answer = try await client.execute(uri: tagged, method: .get)
            XCTAssertEqual(answer.headers[Self.cacheTag], "product-12,shop_7")
            XCTAssertNil(answer.headers[Self.amazonCacheTag])
        }
        try await withRouterTestServer(in: folder, configure: { $0.answers.cacheTagsFormat = .none }) { client in
            let answer = try await client.execute(uri: tagged, method: .get)
            XCTAssertEqual(answer.status, .ok)
            XCTAssertNil(answer.headers[Self.cacheTag])
        }
        XCTAssertEqual(try ImageServer.Configuration(environment: ["IMGPROXY_CACHE_TAGS_FORMAT": "cloudfront"]).answers.cacheTagsFormat, .cloudfront)
        XCTAssertThrowsError(try ImageServer.Configuration(environment: ["IMGPROXY_CACHE_TAGS_FORMAT": "akamai"]))
    }
}
