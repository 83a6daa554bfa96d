import Foundation
import LoopbackHTTPServer
import NIOHTTP1
import WebImage
import WebImageCodecs
import WebImageServer
import WebImageTestSupport
import XCTest

/// What a source's origin says besides its bytes, through a real `webimage serve`: its
/// `Cache-Control` and `Expires` passed on (`--cache-control-passthrough`), its `Last-Modified`
/// answered (`--use-last-modified`, `--last-modified-buster`), and a client's validators sent on
/// to it with the download, its 304 answered as a 304. The rows are those of imgproxy's
/// `processing_handler_test.go` (v4.0.12) on the same settings.
final class ServeOriginHeadersTests: ServeTestCase {
    private static let lastModified = "Wed, 21 Oct 2015 07:28:00 GMT"
    private static let etag = "\"loremipsumdolor\""
    private var png = Data()

    override func setUp() async throws {
        try await super.setUp()
        png = try ImgproxyTestImages.png(PixelBuffer(width: 8, height: 8, fill: RGBA(r: 200, g: 10, b: 10)))
    }

    /// `/insecure/rs:fill:4:4/plain/…` of the origin's `path` from `base`.
    private func resized(_ base: String, _ path: String, headers: [(String, String)] = [])
        async throws -> (status: Int, headers: HTTPHeaders, body: Data) {
        try await get(base + "/insecure/rs:fill:4:4/plain/" + origin.url(path).absoluteString, headers: headers)
    }

    /// The `If-Modified-Since` and `If-None-Match` the origin received for `path`, in order.
    private func conditions(at path: String) -> [String?] {
        origin.requests.filter { $0.path == path }.flatMap { [$0[header: "If-Modified-Since"], $0[header: "If-None-Match"]] }
    }

    func testPassthroughAnswersTheOriginsCacheControlAndNoExpires() async throws {
        origin.route("/cc.png", LoopbackHTTPResponse(headers: [("Content-Type", "image/png"), ("Cache-Control", "max-age=1234, public"),
                                                               ("Expires", DateFormatter.http.string(from: Date(timeIntervalSinceNow: 3600)))],
                                                     chunks: [png]))
        let base = try await serve(["--allow-loopback-sources", "--cache-control-passthrough"])
        let answer = try await resized(base, "/cc.png")
        XCTAssertEqual(answer.status, 200)
        XCTAssertEqual(answer.headers.first(name: "Cache-Control"), "max-age=1234, public")
        XCTAssertNil(answer.headers.first(name: "Expires"))
        let again = try await resized(base, "/cc.png")
        XCTAssertEqual(again.headers.first(name: "Cache-Control"), "max-age=1234, public", "kept with the cached result")
        XCTAssertEqual(origin.requestCount("/cc.png"), 1)
    }

    func testPassthroughTurnsExpiresIntoTheSecondsLeft() async throws {
        origin.route("/expires.png", LoopbackHTTPResponse(headers: [("Content-Type", "image/png"),
                                                                    ("Expires", DateFormatter.http.string(from: Date(timeIntervalSinceNow: 1239)))],
                                                          chunks: [png]))
        let base = try await serve(["--allow-loopback-sources", "--cache-control-passthrough"])
        let answer = try await resized(base, "/expires.png")
        let field = try XCTUnwrap(answer.headers.first(name: "Cache-Control"))
        XCTAssertNotNil(try Regex("max-age=12[0-3][0-9], public").wholeMatch(in: field), field)
        XCTAssertNil(answer.headers.first(name: "Expires"))
    }

    func testWithoutPassthroughTheServersOwnLifetimeIsAnswered() async throws {
        origin.route("/cc.png", LoopbackHTTPResponse(headers: [("Content-Type", "image/png"), ("Cache-Control", "max-age=1234, public"),
                                                               ("Expires", DateFormatter.http.string(from: Date(timeIntervalSinceNow: 3600)))],
                                                     chunks: [png]))
        let base = try await serve(["--allow-loopback-sources"])
        let answer = try await resized(base, "/cc.png")
        XCTAssertEqual(answer.headers.first(name: "Cache-Control"), "max-age=31536000, public")
        XCTAssertNil(answer.headers.first(name: "Expires"))
    }

    func testETagsCanBeTurnedOff() async throws {
        origin.route("/plain.png", .bytes(png, contentType: "image/png", etag: Self.etag))
        let base = try await serve(["--allow-loopback-sources", "--use-etag", "false"])
        let answer = try await resized(base, "/plain.png")
        XCTAssertEqual(answer.status, 200)
        XCTAssertNil(answer.headers.first(name: "ETag"))
        let conditional = try await resized(base, "/plain.png", headers: [("If-None-Match", "*")])
        XCTAssertEqual(conditional.status, 200, "If-None-Match is not read")
    }

    /// The origin answers 304 only to a request carrying the client's tag.
    func testTheClientsTagGoesToTheOriginWhose304IsAnswered() async throws {
        origin.route("/tagged.png") { [png] request in
            request[header: "If-None-Match"] == Self.etag
                ? LoopbackHTTPResponse(status: 304, headers: [("ETag", Self.etag)])
                : .bytes(png, contentType: "image/png", etag: Self.etag)
        }
        let base = try await serve(["--allow-loopback-sources"])
        let answer = try await get(base + "/insecure/plain/" + origin.url("/tagged.png").absoluteString,
                                   headers: [("If-None-Match", Self.etag)])
        XCTAssertEqual(answer.status, 304)
        XCTAssertEqual(answer.headers.first(name: "ETag"), Self.etag)
        XCTAssertTrue(answer.body.isEmpty)
        let unconditional = try await get(base + "/insecure/plain/" + origin.url("/tagged.png").absoluteString)
        XCTAssertEqual(unconditional.status, 200, "a 304 is the asker's alone: nothing was cached")
        XCTAssertEqual(conditions(at: "/tagged.png"), [nil, Self.etag, nil, nil])
    }

    /// imgproxy's `IMGPROXY_ETAG_BUSTER`: every answered tag carries the word, a client's copy
    /// of before it is stale, and only a tag carrying it goes on to the origin, without it.
    func testTheETagBusterMarksEveryTagAndOnlyBustedTagsGoToTheOrigin() async throws {
        origin.route("/tagged.png") { [png] request in
            request[header: "If-None-Match"] == Self.etag
                ? LoopbackHTTPResponse(status: 304, headers: [("ETag", Self.etag)])
                : .bytes(png, contentType: "image/png", etag: Self.etag)
        }
        let plain = try await serve(["--allow-loopback-sources"])
        let busted = try await serve(["--allow-loopback-sources"], environment: ["IMGPROXY_ETAG_BUSTER": "v2"])
        let path = "/insecure/plain/" + origin.url("/tagged.png").absoluteString
        let unbusted = try await get(plain + path)
        let old = try XCTUnwrap(unbusted.headers.first(name: "ETag"))
        let fresh = try await get(busted + path)
        let tag = try XCTUnwrap(fresh.headers.first(name: "ETag"))
        XCTAssertEqual(tag, "\"v2/" + old.dropFirst(), "the same result's tag, with the buster inside its quotes")
        let stale = try await get(busted + path, headers: [("If-None-Match", old)])
        XCTAssertEqual(stale.status, 200, "a copy from before the buster is stale")
        let current = try await get(busted + path, headers: [("If-None-Match", tag)])
        XCTAssertEqual(current.status, 304)
        // A server holding no result: the conditional request goes to the origin.
        let unwarmed = try await serve(["--allow-loopback-sources", "--etag-buster", "v2"])
        let before = origin.requests.count
        let revalidated = try await get(unwarmed + path, headers: [("If-None-Match", "\"v2/" + Self.etag.dropFirst())])
        XCTAssertEqual(revalidated.status, 304, "the origin's 304 to its own tag")
        XCTAssertEqual(revalidated.headers.first(name: "ETag"), "\"v2/" + Self.etag.dropFirst())
        XCTAssertEqual(origin.requests.dropFirst(before).map { $0[header: "If-None-Match"] }, [Self.etag], "sent on without the buster")
        await assertServeRefused(["--etag-buster", "two words"])
    }

    func testTheOriginsLastModifiedIsAnsweredUnlessTurnedOff() async throws {
        origin.route("/dated.png", .bytes(png, contentType: "image/png", lastModified: Self.lastModified))
        let on = try await serve(["--allow-loopback-sources"])
        let answer = try await resized(on, "/dated.png")
        XCTAssertEqual(answer.headers.first(name: "Last-Modified"), Self.lastModified)
        let revalidated = try await resized(on, "/dated.png", headers: [("If-Modified-Since", Self.lastModified)])
        XCTAssertEqual(revalidated.status, 304, "the cached result is dated as its source")
        let off = try await serve(["--allow-loopback-sources", "--use-last-modified", "false"])
        let unDated = try await resized(off, "/dated.png")
        XCTAssertNil(unDated.headers.first(name: "Last-Modified"))
    }

    func testTheBusterIsTheEarliestLastModified() async throws {
        origin.route("/dated.png", .bytes(png, contentType: "image/png", lastModified: Self.lastModified))
        let buster = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let base = try await serve(["--allow-loopback-sources", "--last-modified-buster", ISO8601DateFormatter().string(from: buster)])
        let answer = try await resized(base, "/dated.png")
        XCTAssertEqual(answer.headers.first(name: "Last-Modified"), DateFormatter.http.string(from: buster))
    }

    /// imgproxy's `If-Modified-Since` rows: the same date as the source's, a later one and an
    /// earlier one, with `Last-Modified` on (sent to the origin, its 304 answered) and off
    /// (never sent, 200).
    func testIfModifiedSinceGoesToTheOriginOnlyWhenLastModifiedIsOn() async throws {
        let dates = [Self.lastModified, "Thu, 25 Feb 2021 01:45:00 GMT", "Tue, 01 Oct 2013 17:31:00 GMT"]
        let source = try XCTUnwrap(DateFormatter.http.date(from: Self.lastModified))
        origin.route("/since.png") { [png] request in
            guard let since = request[header: "If-Modified-Since"].flatMap(DateFormatter.http.date(from:)), since >= source else {
                return .bytes(png, contentType: "image/png")
            }
            return LoopbackHTTPResponse(status: 304)
        }
        let on = try await serve(["--allow-loopback-sources"])
        let off = try await serve(["--allow-loopback-sources", "--use-last-modified", "false"])
        for (date, status) in zip(dates, [304, 304, 200]) {
            let answer = try await get(on + "/insecure/plain/" + origin.url("/since.png").absoluteString + "?on=\(status)",
                                       headers: [("If-Modified-Since", date)])
            XCTAssertEqual(answer.status, status, date)
        }
        XCTAssertEqual(conditions(at: "/since.png"), dates.flatMap { [$0, nil] })
        let before = origin.requestCount("/since.png")
        for date in dates {
            let answer = try await get(off + "/insecure/plain/" + origin.url("/since.png").absoluteString + "?off",
                                       headers: [("If-Modified-Since", date)])
            XCTAssertEqual(answer.status, 200, date)
        }
        XCTAssertEqual(conditions(at: "/since.png").dropFirst(2 * before), [nil, nil])
    }

    /// thumbor's `test_can_get_image_cors_header` and `_with_cors_header`, imgproxy's
    /// `IMGPROXY_ALLOW_ORIGIN`: no CORS fields by default; with `--allow-origin '*'` every
    /// answer (a memory hit, an error, `/health`) allows any origin to read it.
    func testCORSFieldsWhenAnOriginIsAllowed() async throws {
        origin.route("/plain.png", .bytes(png, contentType: "image/png"))
        let closed = try await serve(["--allow-loopback-sources"])
        let plain = try await resized(closed, "/plain.png")
        XCTAssertEqual(plain.status, 200)
        XCTAssertNil(plain.headers.first(name: "Access-Control-Allow-Origin"))
        let open = try await serve(["--allow-loopback-sources", "--allow-origin", "*"])
        for path in ["/plain.png", "/plain.png", "/missing.png"] {
            let answer = try await resized(open, path)
            XCTAssertEqual(answer.headers.first(name: "Access-Control-Allow-Origin"), "*", path)
            XCTAssertEqual(answer.headers.first(name: "Access-Control-Allow-Methods"), "GET, OPTIONS", path)
        }
        let health = try await get(open + "/health")
        XCTAssertEqual(health.headers.first(name: "Access-Control-Allow-Origin"), "*")
    }

    /// A browser's preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) is
    /// answered 204 with the allowed origin, methods, fields and `Access-Control-Max-Age`, at
    /// any path, `Vary: Origin` where one origin is allowed rather than any; without
    /// `--allow-origin`, `OPTIONS` stays a method the server does not serve (405, `Allow`).
    func testPreflightsAreAnsweredWhenAnOriginIsAllowed() async throws {
        let preflight = [("Origin", "https://site.example"), ("Access-Control-Request-Method", "GET"),
                         ("Access-Control-Request-Headers", "if-none-match")]
        let one = try await serve(["--allow-origin", "https://site.example"])
        let path = "/insecure/rs:fit:10:10/plain/" + origin.url("/plain.png").absoluteString
        for url in [one + path, one + "/health"] {
            let answer = try await get(url, headers: preflight, method: .OPTIONS)
            XCTAssertEqual(answer.status, 204, url)
            XCTAssertEqual(answer.headers.first(name: "Access-Control-Allow-Origin"), "https://site.example", url)
            XCTAssertEqual(answer.headers.first(name: "Access-Control-Allow-Methods"), "GET, OPTIONS", url)
            XCTAssertEqual(answer.headers.first(name: "Access-Control-Max-Age"), "86400", url)
            XCTAssertTrue(answer.headers.first(name: "Access-Control-Allow-Headers")?.contains("If-None-Match") == true, url)
            XCTAssertEqual(answer.headers.first(name: "Vary"), "Origin", url)
            XCTAssertEqual(answer.body.count, 0, url)
        }
        let any = try await serve(["--allow-origin", "*"])
        let open = try await get(any + path, headers: preflight, method: .OPTIONS)
        XCTAssertEqual(open.status, 204)
        XCTAssertEqual(open.headers.first(name: "Access-Control-Allow-Origin"), "*")
        XCTAssertNil(open.headers.first(name: "Vary"), "an answer for any origin does not vary by it")
        let closed = try await serve([])
        let refused = try await get(closed + path, headers: preflight, method: .OPTIONS)
        XCTAssertEqual(refused.status, 405)
        XCTAssertEqual(refused.headers.first(name: "Allow"), "GET, HEAD")
        XCTAssertNil(refused.headers.first(name: "Access-Control-Allow-Origin"))
        XCTAssertEqual(origin.requestCount("/plain.png"), 0, "a preflight fetches nothing")
    }
}

private extension DateFormatter {
    /// HTTP's IMF-fixdate.
    static let http: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }()
}
