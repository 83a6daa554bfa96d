import AsyncHTTPClient
import Foundation
import LoopbackHTTPServer
import NIOCore
import NIOHTTP1
import WebImage
import WebImageCodecs
import WebImageServer
import WebImageTestSupport
import XCTest

/// `webimage serve`'s images, errors, limits and configuration.
final class ServeCommandTests: ServeTestCase {
    func testSignedRequestsAreProcessedAndCached() async throws {
        let base = try await serve(["--key", Self.key, "--salt", Self.salt, "--allow-loopback-sources", "--ttl", "600"])
        let path = try signed("/rs:fit:200:200/plain/\(origin.url("/photo.jpg").absoluteString)@webp")
        let first = try await get(base + path)
        XCTAssertEqual(first.status, 200, String(decoding: first.body, as: UTF8.self))
        XCTAssertEqual(first.headers.first(name: "Content-Type"), "image/webp")
        XCTAssertEqual(first.headers.first(name: "Cache-Control"), "max-age=600, public")
        XCTAssertEqual(first.headers.first(name: "Content-Disposition"), "inline; filename=\"photo.webp\"")
        let image = try ImageCoders.shared.decode(first.body)
        XCTAssertEqual(image.format, .webp)
        XCTAssertEqual([image.pixelWidth, image.pixelHeight], [200, 150])
        let etag = try XCTUnwrap(first.headers.first(name: "ETag"))
        XCTAssertTrue(etag.hasPrefix("\"") && !etag.hasPrefix("W/"), etag)

        let again = try await get(base + path, headers: [("If-None-Match", etag)])
        XCTAssertEqual(again.status, 304)
        XCTAssertTrue(again.body.isEmpty)
        let head = try await get(base + path, method: .HEAD)
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.headers.first(name: "Content-Length"), String(first.body.count))
        // The origin was asked once: the source and the result are cached.
        XCTAssertEqual(origin.requestCount("/photo.jpg"), 1)
        // One log line a request, on standard error, without the signature.
        let server = try XCTUnwrap(servers.last)
        let logged = server.errorOutput.split(separator: "\n").filter { $0.contains("request") && $0.contains("path=/rs:fit:200:200/") }
        XCTAssertEqual(logged.count, 3, server.errorOutput)
        XCTAssertTrue(logged[0].contains("cache=made") && logged[0].contains("status=200") && logged[0].contains("method=GET"), "\(logged[0])")
        XCTAssertTrue(logged[1].contains("cache=memory") && logged[1].contains("status=304"), "\(logged[1])")
        XCTAssertFalse(server.errorOutput.contains(String(path.dropFirst().prefix { $0 != "/" })))

        let base64 = Data(origin.url("/photo.jpg").absoluteString.utf8).base64EncodedString()
            .replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "+", with: "-")
        let encoded = try await get(base + (try signed("/rs:fill:64:64/\(base64).png")))
        XCTAssertEqual(encoded.status, 200)
        let square = try ImageCoders.shared.decode(encoded.body)
        XCTAssertEqual([square.pixelWidth, square.pixelHeight, square.format == .png ? 1 : 0], [64, 64, 1])
    }

    func testErrorsHaveTheirStatusAndAShortTextBody() async throws {
        let base = try await serve(["--key", Self.key, "--salt", Self.salt, "--allow-loopback-sources"])
        let source = origin.url("/photo.jpg").absoluteString
        let cases: [(String, Int)] = [
            ("/insecure/w:10/plain/\(source)", 403),
            (try signed("/w:10/plain/\(source)").replacingOccurrences(of: "/w:10", with: "/w:11"), 403),
            (try signed("/vignette:2/plain/\(source)"), 400),
            (try signed("/w:10/plain/\(origin.url("/gone.jpg").absoluteString)"), 404),
            (try signed("/w:10/plain/\(origin.url("/broken.jpg").absoluteString)"), 502),
            (try signed("/rs:force:16000:16000:1/plain/\(source)"), 422),
        ]
        for (path, status) in cases {
            let response = try await get(base + path)
            XCTAssertEqual(response.status, status, path)
            XCTAssertEqual(response.headers.first(name: "Content-Type"), "text/plain; charset=utf-8")
            let text = String(decoding: response.body, as: UTF8.self)
            XCTAssertEqual(text.filter { $0 == "\n" }.count, 1, text)
            XCTAssertFalse(text.contains(Self.key), text)
        }
        let health = try await get(base + "/health")
        XCTAssertEqual(health.status, 200)
    }

    func testHostilePathsGetClientErrorsAndTheServerStaysUp() async throws {
        let base = try await serve([])
        let paths = [
            "/", "//", "///plain/", "/%00/w:1/plain/local:///a", "/s/w:%00/plain/local:///a", "/s/" + String(repeating: "w:1/", count: 5000),
            "/s/plain/" + String(repeating: "%25", count: 3000), "/s/" + String(repeating: "a", count: 20000), "/s/pr:x/plain/local:///a",
            "/s/rs:fill:99999999999999999999999/plain/local:///a", "/s/plain/local:///..%2F..%2Fetc%2Fpasswd", "/health/../s",
        ]
        for path in paths {
            let response = try await get(base + path)
            XCTAssertTrue([400, 403, 404, 414, 431].contains(response.status), "\(response.status) for \(path.prefix(60))")
        }
        let health = try await get(base + "/health")
        XCTAssertEqual(health.status, 200)
        XCTAssertTrue(try XCTUnwrap(servers.last).isServing)
    }

    func testLoopbackSourcesAreRefusedByDefault() async throws {
        let base = try await serve(["--key", Self.key, "--salt", Self.salt])
        let response = try await get(base + (try signed("/w:10/plain/\(origin.url("/photo.jpg").absoluteString)")))
        XCTAssertEqual(response.status, 404)
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "not allowed: the source resolves to a loopback address\n")
        XCTAssertEqual(origin.requestCount("/photo.jpg"), 0)
    }

    func testSourceLimitsAreClientErrors() async throws {
        let base = try await serve(["--allow-loopback-sources", "--max-src-file-size", "1000", "--max-src-resolution", "0.1"])
        let tooLarge = try await get(base + "/insecure/w:10/plain/\(origin.url("/photo.jpg").absoluteString)")
        XCTAssertEqual(tooLarge.status, 422, String(decoding: tooLarge.body, as: UTF8.self))
        let roomy = try await serve(["--allow-loopback-sources", "--max-src-resolution", "0.1"])
        let tooManyPixels = try await get(roomy + "/insecure/rs:fill:10:10/plain/\(origin.url("/photo.jpg").absoluteString)")
        XCTAssertEqual(tooManyPixels.status, 422, String(decoding: tooManyPixels.body, as: UTF8.self))
    }

    /// imgproxy's security options: refused (403) unless the server allows them, then the
    /// URL's own limits (TestImageResolutionTooLarge: `max_src_resolution:0.00001` is 422).
    func testSecurityOptionsSetAURLsOwnLimitsWhenAllowed() async throws {
        let source = origin.url("/photo.jpg").absoluteString
        let strict = try await serve(["--allow-loopback-sources"])
        for option in ["max_src_resolution:0.00001", "msfs:1000", "maf:1", "mafr:1", "mrd:50"] {
            let refused = try await get(strict + "/insecure/\(option)/plain/\(source)")
            XCTAssertEqual(refused.status, 403, option)
        }
        let allowing = try await serve(["--allow-loopback-sources", "--allow-security-options", "--max-src-resolution", "0.1"])
        let cases: [(String, Int)] = [("max_src_resolution:0.00001/w:10", 422), ("msfs:1000/w:10", 422), ("msr:2/w:10", 200),
                                      ("w:10", 422), ("msfs:100000000/w:10", 422)]
        for (options, status) in cases {
            let answer = try await get(allowing + "/insecure/\(options)/plain/\(source)")
            XCTAssertEqual(answer.status, status, "\(options): " + String(decoding: answer.body, as: UTF8.self))
        }
    }

    func testAcceptChoosesTheFormatWhenTheURLNamesNone() async throws {
        let base = try await serve(["--allow-loopback-sources", "--auto-webp"])
        let source = origin.url("/photo.jpg").absoluteString
        let webp = try await get(base + "/insecure/w:40/plain/\(source)", headers: [("Accept", "image/webp,image/*;q=0.8")])
        XCTAssertEqual(webp.headers.first(name: "Content-Type"), "image/webp")
        XCTAssertEqual(webp.headers.first(name: "Vary"), "Accept")
        let spaced = try await get(base + "/insecure/w:40/plain/\(source)", headers: [("Accept", "image/png, image/webp;q=0.9")])
        XCTAssertEqual(spaced.headers.first(name: "Content-Type"), "image/webp")
        let plain = try await get(base + "/insecure/w:40/plain/\(source)", headers: [("Accept", "image/*")])
        XCTAssertEqual(plain.headers.first(name: "Content-Type"), "image/jpeg")
        XCTAssertEqual(plain.headers.first(name: "Vary"), "Accept")
        // Hostile Accept fields are read without harm.
        for accept in [";", ",;,", ";q=1", "image/webp;;", String(repeating: ";", count: 1000)] {
            let odd = try await get(base + "/insecure/w:40/plain/\(source)", headers: [("Accept", accept)])
            XCTAssertEqual(odd.status, 200, accept)
        }
        // A format in the URL wins and does not vary.
        let named = try await get(base + "/insecure/w:40/plain/\(source)@png", headers: [("Accept", "image/webp")])
        XCTAssertEqual(named.headers.first(name: "Content-Type"), "image/png")
        XCTAssertNil(named.headers.first(name: "Vary"))
    }

    /// imgproxy's `IMGPROXY_ENFORCE_WEBP` and `_AVIF`: a format the URL names gives way to one
    /// `Accept` lists; without it, the URL's format stands. A URL naming none chooses as with auto.
    func testEnforcedFormatsOverrideTheOneAURLNames() async throws {
        let base = try await serve(["--allow-loopback-sources", "--enforce-webp"], environment: ["IMGPROXY_ENFORCE_AVIF": "false"])
        let source = origin.url("/photo.jpg").absoluteString
        let enforced = try await get(base + "/insecure/w:40/plain/\(source)@png", headers: [("Accept", "image/webp,*/*")])
        XCTAssertEqual(enforced.headers.first(name: "Content-Type"), "image/webp")
        XCTAssertEqual(enforced.headers.first(name: "Vary"), "Accept")
        XCTAssertEqual(ImageFormat(detecting: enforced.body), .webp)
        let notAccepted = try await get(base + "/insecure/w:40/plain/\(source)@png", headers: [("Accept", "image/png")])
        XCTAssertEqual(notAccepted.headers.first(name: "Content-Type"), "image/png")
        XCTAssertEqual(notAccepted.headers.first(name: "Vary"), "Accept")
        let unnamed = try await get(base + "/insecure/w:40/plain/\(source)", headers: [("Accept", "image/webp")])
        XCTAssertEqual(unnamed.headers.first(name: "Content-Type"), "image/webp")
        let avif = try await serve(["--allow-loopback-sources", "--enforce-webp", "--enforce-avif"])
        let both = try await get(avif + "/insecure/w:40/plain/\(source)@jpg", headers: [("Accept", "image/webp,image/avif")])
        XCTAssertEqual(both.headers.first(name: "Content-Type"), "image/avif")
        // An animation is never forced into a still format: AVIF gives way to WebP, or to the named format.
        origin.route("/loop.gif", .bytes(try Fixtures.imageData("gif/sd_TestLoopCount.gif"), contentType: "image/gif"))
        let animation = avif + "/insecure/w:40/plain/\(origin.url("/loop.gif").absoluteString)@gif"
        for (accept, type) in [("image/webp,image/avif", "image/webp"), ("image/avif", "image/gif")] {
            let moving = try await get(animation, headers: [("Accept", accept)])
            XCTAssertEqual(moving.headers.first(name: "Content-Type"), type, accept)
            XCTAssertGreaterThan(try ImageCoders.shared.decode(moving.body).frames.count, 1, accept)
        }
    }

    /// imgproxy's path prefix (handlers/path_test.go's prefixed paths): every path, `/health`
    /// too, starts with it; the signature covers the path after it; any other path is a 404.
    func testAPathPrefixComesBeforeEveryPath() async throws {
        let base = try await serve(["--allow-loopback-sources", "--path-prefix", "/images", "--key", Self.key, "--salt", Self.salt])
        let path = "/w:10/plain/\(origin.url("/photo.jpg").absoluteString)"
        let prefixed = try await get(base + "/images" + (try signed(path)))
        XCTAssertEqual(prefixed.status, 200)
        XCTAssertEqual(try ImageCoders.shared.decode(prefixed.body).pixelWidth, 10)
        let again = try await get(base + "/images" + (try signed(path)))
        XCTAssertEqual(again.status, 200, "answered from memory through the same prefix")
        let health = try await get(base + "/images/health")
        XCTAssertEqual(health.status, 200)
        for unprefixed in [try signed(path), "/health", "/imagesx/health", "/images"] {
            let response = try await get(base + unprefixed)
            XCTAssertEqual(response.status, 404, unprefixed)
        }
        XCTAssertThrowsError(try ImageServer.Configuration(environment: ["IMGPROXY_PATH_PREFIX": "images/"]))
    }

    /// imgproxy's client hints through a request: `DPR` and `Width` (or their `Sec-CH-` names)
    /// size an imgproxy URL that names neither, each set of hints its own result; answers vary by them.
    func testClientHintsSizeTheImage() async throws {
        let base = try await serve(["--allow-loopback-sources", "--enable-client-hints"])
        let url = base + "/insecure/plain/\(origin.url("/photo.jpg").absoluteString)@png"
        for (fields, width) in [([("DPR", "2"), ("Width", "100")], 100), ([("Sec-CH-Width", "60")], 60),
                                ([("Sec-CH-DPR", "2"), ("Sec-CH-Width", "100")], 100), ([("Width", "60")], 60)] {
            let answer = try await get(url, headers: fields)
            XCTAssertEqual(answer.status, 200, "\(fields)")
            XCTAssertEqual(try ImageCoders.shared.decode(answer.body).pixelWidth, width, "\(fields)")
            XCTAssertEqual(answer.headers.first(name: "Vary"), "Sec-CH-DPR, DPR, Sec-CH-Width, Width")
        }
        let named = try await get(base + "/insecure/w:30/plain/\(origin.url("/photo.jpg").absoluteString)@png", headers: [("Width", "100")])
        XCTAssertEqual(try ImageCoders.shared.decode(named.body).pixelWidth, 30, "the URL's width wins")
        let off = try await serve(["--allow-loopback-sources"])
        let ignored = try await get(off + "/insecure/plain/\(origin.url("/photo.jpg").absoluteString)@png", headers: [("Width", "100")])
        XCTAssertGreaterThan(try ImageCoders.shared.decode(ignored.body).pixelWidth, 100, "hints are read only when enabled")
        XCTAssertNil(ignored.headers.first(name: "Vary"))
    }

    /// imgproxy's JPEG XL output: `f:jxl`, and `Accept` choosing it (before AVIF) with `--auto-jxl`.
    func testJPEGXLIsAnOutputFormat() async throws {
        let base = try await serve(["--allow-loopback-sources", "--auto-jxl", "--auto-avif"])
        let source = origin.url("/photo.jpg").absoluteString
        let named = try await get(base + "/insecure/w:40/f:jxl/plain/\(source)")
        XCTAssertEqual(named.headers.first(name: "Content-Type"), "image/jxl")
        XCTAssertEqual(ImageFormat(detecting: named.body), .jxl)
        XCTAssertEqual(try ImageCoders.shared.decode(named.body).pixelWidth, 40)
        let chosen = try await get(base + "/insecure/w:40/plain/\(source)", headers: [("Accept", "image/avif,image/jxl")])
        XCTAssertEqual(chosen.headers.first(name: "Content-Type"), "image/jxl")
        // TestParsePathJxlEnforce: with --enforce-jxl, a URL naming PNG is answered in JPEG XL when accepted.
        let enforcing = try await serve(["--allow-loopback-sources", "--enforce-jxl"])
        let enforced = try await get(enforcing + "/insecure/w:40/plain/\(source)@png", headers: [("Accept", "image/jxl")])
        XCTAssertEqual(enforced.headers.first(name: "Content-Type"), "image/jxl")
    }

    func testAutoAVIFIsPreferredToWebPWhenAcceptListsBoth() async throws {
        let base = try await serve(["--allow-loopback-sources", "--auto-webp"], environment: ["IMGPROXY_AUTO_AVIF": "true"])
        let url = base + "/insecure/w:40/plain/\(origin.url("/photo.jpg").absoluteString)"
        let both = try await get(url, headers: [("Accept", "image/webp,image/avif,*/*")])
        XCTAssertEqual(both.headers.first(name: "Content-Type"), "image/avif")
        XCTAssertEqual(both.headers.first(name: "Vary"), "Accept")
        XCTAssertEqual(ImageFormat(detecting: both.body), .avif)
        XCTAssertEqual(try ImageCoders.shared.decode(both.body).pixelWidth, 40)
        let webpOnly = try await get(url, headers: [("Accept", "image/webp")])
        XCTAssertEqual(webpOnly.headers.first(name: "Content-Type"), "image/webp")
        let neither = try await get(url, headers: [("Accept", "image/png")])
        XCTAssertEqual(neither.headers.first(name: "Content-Type"), "image/jpeg")
    }

    /// Chrome's `Accept` lists AVIF: an animated source must go on moving, in WebP when the
    /// client takes it, else in its own format; a still one is AVIF.
    func testAnAnimatedSourceStaysAnimatedWhateverAcceptListsAndAStillOneBecomesAVIF() async throws {
        origin.route("/loop.gif", .bytes(try Fixtures.imageData("gif/sd_TestLoopCount.gif"), contentType: "image/gif"))
        let chrome = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"
        let base = try await serve(["--allow-loopback-sources", "--auto-webp", "--auto-avif"])
        let animation = base + "/insecure/w:40/plain/\(origin.url("/loop.gif").absoluteString)"
        for (accept, type) in [(chrome, "image/webp"), ("image/avif,*/*", "image/gif")] {
            let response = try await get(animation, headers: [("Accept", accept)])
            XCTAssertEqual(response.headers.first(name: "Content-Type"), type, accept)
            XCTAssertEqual(response.headers.first(name: "Vary"), "Accept")
            XCTAssertGreaterThan(try ImageCoders.shared.decode(response.body).frames.count, 1, "\(accept): still moving")
        }
        let still = try await get(base + "/insecure/w:40/plain/\(origin.url("/photo.jpg").absoluteString)", headers: [("Accept", chrome)])
        XCTAssertEqual(still.headers.first(name: "Content-Type"), "image/avif")
    }

    func testAFullQueueIsAnswered429() async throws {
        let base = try await serve(["--allow-loopback-sources", "--concurrency", "1", "--max-queue", "0", "--timeout", "120"])
        let client = try XCTUnwrap(self.client)
        // The heavy request holds the only slot for seconds: the test is refused meanwhile.
        let heavyURL = heavyURL(base)
        let heavy = Task { try await client.execute(HTTPClientRequest(url: heavyURL), timeout: .seconds(120)).status.code }
        try await waitUntilSourcesFetched(base)
        let refused = try await get(base + "/insecure/w:10/plain/\(origin.url("/photo.jpg").absoluteString)")
        XCTAssertEqual(refused.status, 429)
        XCTAssertEqual(String(decoding: refused.body, as: UTF8.self), "too many requests: try again later\n")
        let heavyStatus = try await heavy.value
        XCTAssertEqual(heavyStatus, 200)
        // With the slot free again the refused request goes through.
        let retried = try await get(base + "/insecure/w:10/plain/\(origin.url("/photo.jpg").absoluteString)")
        XCTAssertEqual(retried.status, 200)
    }

    func testSIGTERMStopsTheServerWithStatusZero() async throws {
        let base = try serveProcess(["--allow-loopback-sources"])
        let response = try await get(base + "/insecure/w:10/plain/\(origin.url("/photo.jpg").absoluteString)")
        XCTAssertEqual(response.status, 200)
        let server = try XCTUnwrap(processes.last)
        server.send(SIGTERM)
        XCTAssertEqual(server.waitForExit(timeout: 30), 0, server.errorOutput)
    }

    func testImgproxyEnvironmentVariablesConfigureTheServer() async throws {
        let base = try start(["serve", "--allow-loopback-sources", "--cache-dir", folder.appending("env").path],
                             environment: ["IMGPROXY_BIND": "127.0.0.1:0", "IMGPROXY_KEY": Self.key,
                                           "IMGPROXY_SALT": Self.salt, "IMGPROXY_TTL": "60"])
        let response = try await get(base + (try signed("/w:10/plain/\(origin.url("/photo.jpg").absoluteString)")))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.headers.first(name: "Cache-Control"), "max-age=60, public")
        let unsigned = try await get(base + "/insecure/w:10/plain/\(origin.url("/photo.jpg").absoluteString)")
        XCTAssertEqual(unsigned.status, 403)
    }

    func testHelpListsEverySettingAndBadValuesOrForeignVariablesAreSaid() throws {
        let webimage = BuiltProducts.executable("webimage")
        let help = try ChildProcess.run(webimage, ["serve", "--help"])
        XCTAssertEqual(help.status, 0)
        let words = help.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for setting in ImageServer.Configuration.settings {
            XCTAssertTrue(words.contains("--\(setting.flag)"), setting.flag)
            if let variable = setting.variable { XCTAssertTrue(words.contains("$\(variable)"), variable) }
        }
        let badVariable = try ChildProcess.run(webimage, ["serve", "--bind", "127.0.0.1:0"], environment: ["IMGPROXY_QUALITY": "0"])
        XCTAssertEqual(badVariable.status, 1)
        XCTAssertEqual(badVariable.error, "webimage: IMGPROXY_QUALITY is outside 1…100\n")
        let refused = try ChildProcess.run(webimage, ["serve", "--bind", "127.0.0.1:0"], environment: ["IMGPROXY_USE_GCS": "true"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.error.hasPrefix("webimage: IMGPROXY_USE_GCS is not supported here ("), refused.error)
        let warned = try ServeProcess([], environment: ["IMGPROXY_QUALTY": "50", "IMGPROXY_SENTRY_DSN": "https://sentry.example/1"])
        XCTAssertTrue(warned.process.errorOutput.contains(
            "webimage serve: warning: IMGPROXY_QUALTY is no variable imgproxy reads; did you mean IMGPROXY_QUALITY?\n"), warned.process.errorOutput)
        XCTAssertTrue(warned.process.errorOutput.contains("webimage serve: warning: IMGPROXY_SENTRY_DSN is ignored here: "))
        warned.process.killAndReap()
        let badFlag = try ChildProcess.run(webimage, ["serve", "--bind", "127.0.0.1:0", "--max-redirects=-1"])
        XCTAssertEqual(badFlag.status, 1)
        XCTAssertEqual(badFlag.error, "webimage: --max-redirects is outside 0…100\n")
    }
}
