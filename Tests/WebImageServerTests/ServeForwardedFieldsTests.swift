import Foundation
import LoopbackHTTPServer
import WebImage
import WebImageServer
import WebImageTestSupport
import XCTest

/// Fields of a client's request sent on to the origin, through a real `webimage serve` and a
/// real origin. imgproxy's `IMGPROXY_COOKIE_PASSTHROUGH`, `_PASSTHROUGH_ALL` and
/// `_COOKIE_BASE_URL`: the cookies whose scope (the address the client asked, or the base URL)
/// covers the source reach the origin, well-formed pairs only; other sources get none.
/// thumbor's `HTTP_LOADER_FORWARD_*`: the headers named, or all but the connection's, and the
/// User-Agent, with thumbor URLs only. A download carrying any is never cached, nor a result
/// made from it.
final class ServeForwardedFieldsTests: ServeTestCase {
    private static let cookies = "session=abc123; broken pair=1; theme=\"dark\"; evil=a\\b"
    private static let sent = "session=abc123; theme=\"dark\""

    override func setUp() async throws {
        try await super.setUp()
        let png = try ImgproxyTestImages.png(PixelBuffer(width: 8, height: 8, fill: RGBA(r: 200, g: 10, b: 10)))
        for path in ["/photo.png", "/images/photo.png", "/images/other.png", "/private.png"] {
            origin.route(path, .bytes(png, contentType: "image/png"))
        }
    }

    /// The `Cookie` the origin received with the latest download of `path`, or nil.
    private func cookieReceived(at path: String) -> String?? {
        origin.requests.last(where: { $0.path == path }).map { $0[header: "Cookie"] }
    }

    /// Asks `base` for `path` of the origin with `headers` and a Cookie field, and returns the
    /// Cookie the origin received for it.
    private func forwarded(_ base: String, _ path: String, _ headers: [(String, String)] = []) async throws -> String? {
        let before = origin.requestCount(path)
        let response = try await get(base + "/insecure/rs:fit:4:4/plain/" + origin.url(path).absoluteString,
                                     headers: headers + [("Cookie", Self.cookies)])
        XCTAssertEqual(response.status, 200, path)
        XCTAssertEqual(origin.requestCount(path), before + 1, "\(path): downloaded for this request")
        return cookieReceived(at: path) ?? nil
    }

    func testCookiesGoOnlyWhereTheirScopeCovers() async throws {
        let plain = try await serve(["--allow-loopback-sources"])
        let passing = try await serve(["--allow-loopback-sources", "--cookie-passthrough"])
        let based = try await serve(["--allow-loopback-sources", "--cookie-passthrough", "--cookie-base-url", "http://127.0.0.1/images/page"])
        let all = try await serve(["--allow-loopback-sources"], environment: ["IMGPROXY_COOKIE_PASSTHROUGH": "true", "IMGPROXY_COOKIE_PASSTHROUGH_ALL": "1"])

        let none = try await forwarded(plain, "/photo.png")
        XCTAssertNil(none, "not without --cookie-passthrough")
        let sameHost = try await forwarded(passing, "/images/photo.png")
        XCTAssertEqual(sameHost, Self.sent, "the address asked is the source's host (ports aside): the well-formed pairs")
        let otherHost = try await forwarded(passing, "/images/other.png", [("X-Forwarded-Host", "images.example.com")])
        XCTAssertNil(otherHost, "the client asked another host, as its proxy says")
        let outsideBasePath = try await forwarded(based, "/photo.png")
        XCTAssertNil(outsideBasePath, "the base URL's path /images does not cover /photo.png")
        let withinBasePath = try await forwarded(based, "/images/photo.png", [("X-Forwarded-Host", "images.example.com")])
        XCTAssertEqual(withinBasePath, Self.sent, "the base URL, not the address asked")
        let everywhere = try await forwarded(all, "/photo.png", [("X-Forwarded-Host", "images.example.com")])
        XCTAssertEqual(everywhere, Self.sent, "every cookie to every source")
    }

    func testADownloadWithCookiesIsNeverCached() async throws {
        let folder = try TemporaryFolder(self)
        let server = try await serve(["--allow-loopback-sources", "--cookie-passthrough", "--cache-dir", folder.url.path])
        let url = server + "/insecure/rs:fit:4:4/plain/" + origin.url("/private.png").absoluteString
        for _ in 0..<2 {
            let response = try await get(url, headers: [("Cookie", "session=one")])
            XCTAssertEqual(response.status, 200)
        }
        XCTAssertEqual(origin.requestCount("/private.png"), 2, "each request with cookies downloads")
        let anonymous = try await get(url)
        XCTAssertEqual(anonymous.status, 200)
        XCTAssertEqual(origin.requestCount("/private.png"), 3, "nothing kept from the private downloads")
        XCTAssertNil(cookieReceived(at: "/private.png") ?? nil)
        let again = try await get(url)
        XCTAssertEqual(again.status, 200)
        XCTAssertEqual(origin.requestCount("/private.png"), 3, "the anonymous result is cached as before")
        let withCookies = try await get(url, headers: [("Cookie", "session=two")])
        XCTAssertEqual(withCookies.status, 200)
        XCTAssertEqual(origin.requestCount("/private.png"), 4, "a request with cookies never gets the cached result")
        XCTAssertEqual(cookieReceived(at: "/private.png") ?? nil, "session=two")
    }

    func testThumborURLsForwardTheHeadersTheSettingsName() async throws {
        let named = try await serve(["--allow-loopback-sources", "--thumbor-forward-header", "X-Tenant", "--thumbor-forward-user-agent"])
        let all = try await serve(["--allow-loopback-sources", "--secret", "s3cret"],
                                  environment: ["THUMBOR_HTTP_LOADER_FORWARD_ALL_HEADERS": "true"])
        let headers = [("X-Tenant", "acme"), ("X-Other", "b"), ("User-Agent", "Custom/1.0"), ("Authorization", "Bearer s3cret")]
        /// The origin's request for `path` asked through `base` with `url`.
        func received(_ base: String, _ url: String, _ path: String) async throws -> LoopbackHTTPRequest? {
            let response = try await get(base + url, headers: headers)
            XCTAssertEqual(response.status, 200, url)
            return origin.requests.last { $0.path == path }
        }
        let thumbor = try await received(named, "/unsafe/4x4/" + origin.url("/photo.png").absoluteString, "/photo.png")
        XCTAssertEqual(thumbor?[header: "X-Tenant"], "acme")
        XCTAssertNil(thumbor?[header: "X-Other"])
        XCTAssertEqual(thumbor?[header: "User-Agent"], "Custom/1.0")
        let imgproxy = try await received(named, "/insecure/rs:fit:4:4/plain/" + origin.url("/images/photo.png").absoluteString, "/images/photo.png")
        XCTAssertNil(imgproxy?[header: "X-Tenant"], "a thumbor setting")
        XCTAssertNotEqual(imgproxy?[header: "User-Agent"], "Custom/1.0")
        let everything = try await received(all, "/unsafe/4x4/" + origin.url("/images/other.png").absoluteString, "/images/other.png")
        XCTAssertEqual(everything?[header: "X-Other"], "b")
        XCTAssertEqual(everything?[header: "X-Tenant"], "acme")
        XCTAssertNil(everything?[header: "Authorization"], "the server's secret stays here")
        let again = try await received(named, "/unsafe/4x4/" + origin.url("/photo.png").absoluteString, "/photo.png")
        XCTAssertNotNil(again)
        XCTAssertEqual(origin.requestCount("/photo.png"), 2, "a download with forwarded headers is never cached")
    }
}
