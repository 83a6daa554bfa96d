import Foundation
import WebImage
import WebImageCodecs
import WebImageServer
import WebImageTestSupport
import XCTest

/// imgproxy's variables that set what a URL starts from, or what the server does beside URLs:
/// `IMGPROXY_AUTO_ROTATE`, `_STRIP_COLOR_PROFILE`, `_FORMAT_QUALITY`, `_MAX_RESULT_DIMENSION`,
/// `_USER_AGENT` and `_HEALTH_CHECK_PATH`, each observed in what a real server answers.
final class ServeServerDefaultsTests: ServeTestCase {
    override func setUp() async throws {
        try await super.setUp()
        origin.route("/turned.jpg", .bytes(try Fixtures.data(Fixtures.image("jpeg/pil_hopper_orientation_6.jpg")), contentType: "image/jpeg"))
        origin.route("/profiled.jpg", .bytes(try Fixtures.colorData("swapped.jpg"), contentType: "image/jpeg"))
    }

    /// The image `base` answers for `options` of the origin's `file`, decoded as `decoding` says.
    private func image(_ base: String, _ options: String, _ file: String, suffix: String = "",
                       decoding: ImageDecodeOptions = ImageDecodeOptions()) async throws -> (bytes: Int, image: Image) {
        let response = try await get(base + "/insecure/\(options)/plain/\(origin.url("/\(file)").absoluteString)\(suffix)")
        XCTAssertEqual(response.status, 200, String(decoding: response.body.prefix(200), as: UTF8.self))
        return (response.body.count, try ImageCoders.shared.decode(response.body, options: decoding))
    }

    func testAutoRotateOffLeavesTheEXIFOrientationUndoneAndARURLStillTurns() async throws {
        let upright = try await image(try await serve(["--allow-loopback-sources"]), "w:64", "turned.jpg")
        let asStored = try await serve(["--allow-loopback-sources"], environment: ["IMGPROXY_AUTO_ROTATE": "false"])
        let unturned = try await image(asStored, "w:64", "turned.jpg")
        let turned = try await image(asStored, "w:64/ar:1", "turned.jpg")
        // The stored pixels are a quarter turn from upright (the source is square, so only they tell).
        let asIs = PixelDifference(unturned.image.pixels, upright.image.pixels)
        let turnedHere = PixelDifference(unturned.image.pixels.applying(.right), upright.image.pixels)
        XCTAssertGreaterThan(asIs.mean, 4 * turnedHere.mean, "left undone: a quarter turn from upright (\(asIs) vs \(turnedHere))")
        XCTAssertEqual(turned.image.pixels, upright.image.pixels, "a URL's ar wins over the server's default")
    }

    func testKeepingColourProfilesIsTheDefaultWhenStripColorProfileIsOff() async throws {
        let keep = ImageDecodeOptions(colorManagement: .preserve)
        let stripping = try await image(try await serve(["--allow-loopback-sources"]), "w:40", "profiled.jpg", suffix: "@png", decoding: keep)
        XCTAssertNil(stripping.image.colorProfile)
        let keeping = try await serve(["--allow-loopback-sources", "--strip-color-profile", "false"])
        let kept = try await image(keeping, "w:40", "profiled.jpg", suffix: "@png", decoding: keep)
        XCTAssertNotNil(kept.image.colorProfile)
        let strippedByURL = try await image(keeping, "w:40/scp:1", "profiled.jpg", suffix: "@png", decoding: keep)
        XCTAssertNil(strippedByURL.image.colorProfile, "a URL's scp wins")
    }

    func testFormatQualityIsTheDefaultOfItsFormatOnly() async throws {
        let plain = try await serve(["--allow-loopback-sources"])
        let tuned = try await serve(["--allow-loopback-sources"], environment: ["IMGPROXY_FORMAT_QUALITY": "webp=10"])
        let plainWebP = try await image(plain, "w:300", "photo.jpg", suffix: "@webp").bytes
        let tunedWebP = try await image(tuned, "w:300", "photo.jpg", suffix: "@webp").bytes
        XCTAssertLessThan(tunedWebP, plainWebP * 2 / 3, "WebP at 10 is much smaller than at 80")
        let askedWebP = try await image(tuned, "w:300/q:80", "photo.jpg", suffix: "@webp").bytes
        XCTAssertEqual(askedWebP, plainWebP, "a URL's quality wins")
        let tunedJPEG = try await image(tuned, "w:300", "photo.jpg", suffix: "@jpg").bytes
        let plainJPEG = try await image(plain, "w:300", "photo.jpg", suffix: "@jpg").bytes
        XCTAssertEqual(tunedJPEG, plainJPEG, "JPEG keeps --quality")
        await assertServeRefused(["--format-quality", "webp=0"])
        await assertServeRefused(["--format-quality", "bmpx=50"])
    }

    /// The start-of-frame marker of a JPEG: `FF C0` baseline, `FF C2` progressive (in the
    /// entropy-coded data an `FF` is followed only by `00` or a restart marker).
    private static func startOfFrame(_ jpeg: Data) -> UInt8? {
        let bytes = [UInt8](jpeg)
        return zip(bytes, bytes.dropFirst()).first { $0.0 == 0xFF && ($0.1 == 0xC0 || $0.1 == 0xC2) }?.1
    }

    func testProgressiveJPEGIsImgproxysWhenAskedAndThumborsByDefault() async throws {
        let plain = try await serve(["--allow-loopback-sources"])
        let progressive = try await serve(["--allow-loopback-sources"], environment: ["IMGPROXY_JPEG_PROGRESSIVE": "true"])
        let thumborBaseline = try await serve(["--allow-loopback-sources"], environment: ["THUMBOR_PROGRESSIVE_JPEG": "false"])
        let source = origin.url("/photo.jpg").absoluteString
        let imgproxyPath = "/insecure/w:200/plain/\(source)@jpg", thumborPath = "/unsafe/200x0/\(source)"
        let baseline = try await get(plain + imgproxyPath), scans = try await get(progressive + imgproxyPath)
        XCTAssertEqual(Self.startOfFrame(baseline.body), 0xC0)
        XCTAssertEqual(Self.startOfFrame(scans.body), 0xC2)
        XCTAssertEqual(try ImageCoders.shared.decode(scans.body).pixels, try ImageCoders.shared.decode(baseline.body).pixels,
                       "the same coefficients, sent in another order")
        let thumbor = try await get(plain + thumborPath), thumborPlain = try await get(thumborBaseline + thumborPath)
        XCTAssertEqual(thumbor.headers.first(name: "Content-Type"), "image/jpeg")
        XCTAssertEqual(Self.startOfFrame(thumbor.body), 0xC2, "thumbor's PROGRESSIVE_JPEG is on by default")
        XCTAssertEqual(Self.startOfFrame(thumborPlain.body), 0xC0)
    }

    func testMaxResultDimensionShrinksEveryResultToItsLongestSide() async throws {
        let base = try await serve(["--allow-loopback-sources", "--max-result-dimension", "300"])
        let bounded = try await image(base, "w:1000", "photo.jpg")
        XCTAssertEqual(bounded.image.pixelSize, PixelSize(width: 300, height: 225))
        let small = try await image(base, "w:200", "photo.jpg")
        XCTAssertEqual(small.image.pixelSize, PixelSize(width: 200, height: 150), "a result within the bound keeps its size")
    }

    func testTheUserAgentGoesToOriginsWithTheVersionFilledIn() async throws {
        let base = try await serve(["--allow-loopback-sources", "--user-agent", "ImageCDN/%current_version (+https://cdn.example)"])
        _ = try await image(base, "w:10", "photo.jpg")
        let agents = origin.requests.filter { $0.path == "/photo.jpg" }.map { $0[header: "User-Agent"] }
        XCTAssertEqual(agents, ["ImageCDN/\(WebImageVersion.string) (+https://cdn.example)"])
        let plain = try await serve(["--allow-loopback-sources"])
        _ = try await image(plain, "w:11", "turned.jpg")
        let defaultAgent = origin.requests.first { $0.path == "/turned.jpg" }?[header: "User-Agent"]
        XCTAssertEqual(defaultAgent, HTTPImageDownloader.Configuration.defaultUserAgent)
    }

    func testAHealthCheckPathIsAnsweredAsHealthAfterThePrefix() async throws {
        let base = try await serve(["--path-prefix", "/img"], environment: ["IMGPROXY_HEALTH_CHECK_PATH": "/healthz"])
        let checked = try await get(base + "/img/healthz")
        XCTAssertEqual(checked.status, 200)
        let health = try await get(base + "/img/health")
        XCTAssertEqual(checked.body, health.body)
        let unprefixed = try await get(base + "/healthz")
        XCTAssertEqual(unprefixed.status, 404, "the prefix comes first")
        let longer = try await get(base + "/img/healthz/more")
        XCTAssertNotEqual(longer.status, 200)
        await assertServeRefused(["--health-check-path", "healthz"])
    }
}
