import Foundation
import WebImage
import WebImageCodecs
import WebImageServer
import WebImageTestSupport
import XCTest

/// imgproxy's fallback image through a real `webimage serve`: a 40 × 30 green image written by
/// the test is processed with the URL's options when the source cannot be loaded, and never
/// when the URL is refused, bad or too large.
final class ServeFallbackImageTests: ServeTestCase {
    private static let green = RGBA(r: 0, g: 200, b: 0)
    private var fallbackFile: URL!

    override func setUp() async throws {
        try await super.setUp()
        fallbackFile = folder.appending("fallback.png")
        try ImgproxyTestImages.png(PixelBuffer(width: 40, height: 30, fill: Self.green)).write(to: fallbackFile)
        origin.route("/small.png", .bytes(try ImgproxyTestImages.png(PixelBuffer(width: 40, height: 40, fill: RGBA(r: 0, g: 0, b: 255))),
                                          contentType: "image/png"))
        origin.route("/text.png", .html())
    }

    private func source(_ path: String) -> String { origin.url(path).absoluteString }

    func testUnloadableSourcesAnswerTheProcessedFallback() async throws {
        let base = try await serve(["--allow-loopback-sources", "--download-timeout", "0.5", "--key", Self.key, "--salt", Self.salt,
                              "--fallback-image-path", fallbackFile.path])
        for file in ["/gone.jpg", "/broken.jpg", "/text.png", "/slow.jpg"] {
            let answer = try await get(base + (try signed("/rs:fit:20:20/plain/\(source(file))@png")))
            XCTAssertEqual(answer.status, 200, file)
            XCTAssertEqual(answer.headers.first(name: "Fallback-Image"), "1", file)
            XCTAssertEqual(answer.headers.first(name: "Cache-Control"), "max-age=60, public", file)
            let pixels = try ImageCoders.shared.decode(answer.body).pixels
            XCTAssertEqual("\(pixels.width)x\(pixels.height)", "20x15", "\(file): the fallback, resized by the URL's options")
            XCTAssertEqual(pixels[10, 7], Self.green, file)
        }
        let real = try await get(base + (try signed("/rs:fit:20:20/plain/\(source("/small.png"))@png")))
        XCTAssertEqual(real.status, 200)
        XCTAssertNil(real.headers.first(name: "Fallback-Image"))
        XCTAssertEqual(real.headers.first(name: "Cache-Control"), "max-age=31536000, public")
        XCTAssertEqual(try ImageCoders.shared.decode(real.body).pixels[10, 10], RGBA(r: 0, g: 0, b: 255))
    }

    func testTheFallbackIsNotCachedForTheURL() async throws {
        let base = try await serve(["--allow-loopback-sources", "--fallback-image-path", fallbackFile.path])
        let url = base + "/insecure/w:20/plain/\(source("/later.png"))@png"
        let before = try await get(url)
        XCTAssertEqual(before.headers.first(name: "Fallback-Image"), "1")
        origin.route("/later.png", .bytes(try ImgproxyTestImages.png(PixelBuffer(width: 40, height: 40, fill: RGBA(r: 0, g: 0, b: 255))),
                                          contentType: "image/png"))
        let after = try await get(url)
        XCTAssertEqual(after.status, 200)
        XCTAssertNil(after.headers.first(name: "Fallback-Image"), "the source, now there, is answered")
        XCTAssertEqual(try ImageCoders.shared.decode(after.body).pixels[10, 10], RGBA(r: 0, g: 0, b: 255))
    }

    func testRefusedBadAndTooLargeURLsGetNoFallback() async throws {
        let base = try await serve(["--allow-loopback-sources", "--key", Self.key, "--salt", Self.salt, "--max-src-file-size", "2000",
                              "--fallback-image-path", fallbackFile.path])
        let badSignature = try await get(base + "/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/w:20/plain/\(source("/gone.jpg"))")
        XCTAssertEqual(badSignature.status, 403)
        let badOption = try await get(base + (try signed("/w:x/plain/\(source("/gone.jpg"))")))
        XCTAssertEqual(badOption.status, 400)
        let tooLarge = try await get(base + (try signed("/w:20/plain/\(source("/photo.jpg"))")))
        XCTAssertEqual(tooLarge.status, 422)
        for answer in [badSignature, badOption, tooLarge] {
            XCTAssertNil(answer.headers.first(name: "Fallback-Image"))
            XCTAssertEqual(answer.headers.first(name: "Content-Type"), "text/plain; charset=utf-8")
        }
        // A source over the pixel limit is the server's own limit: 422, not the fallback.
        let pixelLimited = try await serve(["--allow-loopback-sources", "--max-src-resolution", "0.5", "--fallback-image-path", fallbackFile.path])
        let tooManyPixels = try await get(pixelLimited + "/insecure/w:20/plain/\(source("/photo.jpg"))")
        XCTAssertEqual(tooManyPixels.status, 422)
        XCTAssertNil(tooManyPixels.headers.first(name: "Fallback-Image"))
        // A source address refused by the policy (loopback, not allowed here) is 404, not the fallback.
        let strict = try await serve(["--fallback-image-path", fallbackFile.path])
        let refused = try await get(strict + "/insecure/w:20/plain/\(source("/gone.jpg"))")
        XCTAssertEqual(refused.status, 404)
        XCTAssertNil(refused.headers.first(name: "Fallback-Image"))
    }

    func testTheStatusAndLifetimeAreConfigurableAndDataWorks() async throws {
        let data = try Data(contentsOf: fallbackFile).base64EncodedString()
        let base = try await serve(["--allow-loopback-sources", "--fallback-image-ttl", "7"],
                             environment: ["IMGPROXY_FALLBACK_IMAGE_DATA": data, "IMGPROXY_FALLBACK_IMAGE_HTTP_CODE": "404"])
        let answer = try await get(base + "/insecure/w:20/plain/\(source("/gone.jpg"))@png")
        XCTAssertEqual(answer.status, 404)
        XCTAssertEqual(answer.headers.first(name: "Cache-Control"), "max-age=7, public")
        XCTAssertEqual(answer.headers.first(name: "Fallback-Image"), "1")
        XCTAssertEqual(try ImageCoders.shared.decode(answer.body).pixels[5, 5], Self.green)
        await assertServeRefused(["--fallback-image-http-code", "99"])
    }
}
