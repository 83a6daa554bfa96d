import Foundation
import WebImage
import WebImageServer
import WebImageTestSupport
import XCTest

/// A thumbor URL whose image is another thumbor URL on the same server (test_base_handler_with_http_loader.py's
/// `test_image_already_generated_by_thumbor`, `_2_times` and `test_image_with_utf8_url`): each
/// level is quoted once more, as libthumbor's `generate(image_url=quote(…))` writes it, signed
/// with `ACME-SEC`; each hop takes one level of escaping off, and the innermost image is fetched
/// from the origin.
final class ServeThumborChainedURLTests: ServeTestCase {
    private let signer = ThumborURLSigner(key: "ACME-SEC")

    /// Python's `urllib.parse.quote(text)` (`/` kept).
    private func quote(_ text: String) -> String {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-~/")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    /// libthumbor's `generate(image_url=)`: `/<signature>/<image>`.
    private func generate(imageURL: String) -> String {
        "/" + signer.signature(for: imageURL) + "/" + imageURL
    }

    func testThumborURLsOfThumborURLsAreAnswered() async throws {
        // thumbor's ALLOW_UNSAFE_URL is on in that test, as by thumbor's default.
        let base = try await serve(["--allow-loopback-sources", "--thumbor-key", "ACME-SEC", "--url-format", "thumbor",
                              "--thumbor-allow-unsafe-url"])
        origin.route("/smart/image.jpg", .bytes(try Fixtures.benchData("testjfif_256.jpg"), contentType: "image/jpeg"))
        origin.route("/smart/alabama1_ap620%C3%A9", .bytes(try Fixtures.benchData("testjfif_256.jpg"), contentType: "image/jpeg"))
        let photo = origin.url("/smart/image.jpg").absoluteString
        let inner = generate(imageURL: quote(photo))
        let twice = generate(imageURL: quote(base + inner))
        let innermost = generate(imageURL: quote(origin.url("/").absoluteString + "smart/alabama1_ap620é"))
        let middle = base + generate(imageURL: quote(base + innermost))
        let thrice = generate(imageURL: quote(middle))
        let unsafeInner = base + quote("/unsafe/" + photo)
        let unsafeChain = generate(imageURL: quote(unsafeInner))
        for (path, name) in [(inner, "one level"), (twice, "test_image_already_generated_by_thumbor"),
                             (thrice, "test_image_already_generated_by_thumbor_2_times"), (unsafeChain, "test_image_with_utf8_url")] {
            let response = try await get(base + path)
            XCTAssertEqual(response.status, 200, "\(name): \(path): \(String(decoding: response.body, as: UTF8.self))")
            XCTAssertEqual(response.headers.first(name: "Content-Type"), "image/jpeg", name)
        }
    }
}
