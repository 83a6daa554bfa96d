import Foundation
import LoopbackHTTPServer
import WebImage
import WebImageCodecs
@testable import WebImageServer
import WebImageTestSupport
import XCTest

/// imgproxy's variables for the encoders' efforts, PNG interlacing and quantization, the log format and Prometheus, and
/// `--print-config`, each observed in what a real server answers, writes or prints.
final class ServeDeploymentSettingsTests: ServeTestCase {
    /// The bytes `base` answers for the origin's photo at 300 pixels wide in `format`.
    private func photo(_ base: String, _ format: String) async throws -> Data {
        let response = try await get(base + "/insecure/w:300/plain/\(origin.url("/photo.jpg").absoluteString)@\(format)")
        XCTAssertEqual(response.status, 200, String(decoding: response.body.prefix(200), as: UTF8.self))
        XCTAssertEqual(try ImageCoders.shared.decode(response.body).pixelWidth, 300)
        return response.body
    }

    func testWebPEffortAndPresetAreImgproxysAndChangeTheBytes() async throws {
        let plain = try await photo(try await serve(["--allow-loopback-sources"]), "webp")
        let four = try await photo(try await serve(["--allow-loopback-sources"], environment: ["IMGPROXY_WEBP_EFFORT": "4"]), "webp")
        XCTAssertEqual(four, plain, "imgproxy's default effort, 4, is the default here")
        let fastest = try await photo(try await serve(["--allow-loopback-sources", "--webp-effort", "1"]), "webp")
        let smallest = try await photo(try await serve(["--allow-loopback-sources"], environment: ["IMGPROXY_WEBP_EFFORT": "6"]), "webp")
        XCTAssertNotEqual(fastest, plain)
        XCTAssertLessThan(smallest.count, fastest.count, "effort 6 searches longer for a smaller file than effort 1")
        let text = try await photo(try await serve(["--allow-loopback-sources"], environment: ["IMGPROXY_WEBP_PRESET": "text"]), "webp")
        XCTAssertNotEqual(text, plain, "the text preset tunes filtering differently")
        // A result kept on disk by a server of another effort is not answered for this one.
        let kept = folder.appending("kept-results").path
        let keptFastest = try await photo(try await serve(["--allow-loopback-sources", "--cache-dir", kept, "--webp-effort", "1"]), "webp")
        XCTAssertEqual(keptFastest, fastest)
        let keptSmallest = try await photo(try await serve(["--allow-loopback-sources", "--cache-dir", kept, "--webp-effort", "6"]), "webp")
        XCTAssertEqual(keptSmallest, smallest, "kept results are tagged with the encoder settings")
        var output = ImageServer.Configuration.OutputSettings()
        XCTAssertEqual(output.encodingTag, "", "the defaults tag nothing: results kept by earlier versions stay valid")
        output.webpEffort = 6
        output.quality = 70
        XCTAssertEqual(output.encodingTag, "q70.we6")
        await assertServeRefused(["--webp-effort", "7"])
        await assertServeRefused(["--webp-preset", "poster"])
    }

    func testAVIFSpeedAndJXLEffortChangeTheBytes() async throws {
        let plain = try await serve(["--allow-loopback-sources"])
        let tuned = try await serve(["--allow-loopback-sources"], environment: ["IMGPROXY_AVIF_SPEED": "9", "IMGPROXY_JXL_EFFORT": "1"])
        let plainAVIF = try await photo(plain, "avif"), fastAVIF = try await photo(tuned, "avif")
        XCTAssertNotEqual(fastAVIF, plainAVIF, "speed 9 encodes otherwise than imgproxy's default 8")
        let plainJXL = try await photo(plain, "jxl"), fastJXL = try await photo(tuned, "jxl")
        XCTAssertNotEqual(fastJXL, plainJXL, "effort 1 encodes otherwise than imgproxy's default 4")
        await assertServeRefused(["--avif-speed", "10"])
        await assertServeRefused(["--jxl-effort", "0"])
    }

    /// `IMGPROXY_DISABLE_SHRINK_ON_LOAD`: the photo is decoded at full size, as a crop to its
    /// whole size (which never shrinks on load) decodes it on a default server, byte for byte;
    /// the default server's reduced decode answers other pixels.
    func testDisablingShrinkOnLoadDecodesEverySourcePixel() async throws {
        let header = try ImageCoders.shared.header(of: try Fixtures.data(Fixtures.bench("testjfif_1024.jpg")))
        let source = origin.url("/photo.jpg").absoluteString
        let defaults = try await serve(["--allow-loopback-sources"])
        let full = try await serve(["--allow-loopback-sources"], environment: ["IMGPROXY_DISABLE_SHRINK_ON_LOAD": "true"])
        let whole = "c:\(header.pixelSize.width):\(header.pixelSize.height)"
        let reduced = try await get(defaults + "/insecure/rs:fit:200:200/plain/\(source)@png")
        let cropped = try await get(defaults + "/insecure/rs:fit:200:200/\(whole)/plain/\(source)@png")
        let disabled = try await get(full + "/insecure/rs:fit:200:200/plain/\(source)@png")
        let pixels = try [reduced, cropped, disabled].map { try ImageCoders.shared.decode($0.body).pixels }
        XCTAssertEqual(pixels[0].width, 200)
        XCTAssertEqual(pixels[2], pixels[1], "a full-size decode, as the whole-size crop's")
        XCTAssertNotEqual(pixels[2], pixels[0], "not the reduced decode's")
    }

    /// `IMGPROXY_USE_LINEAR_COLORSPACE`: one-pixel black and white stripes shrink to the grey of
    /// their light (sRGB 188) rather than of their bytes (128); thumbor URLs are unchanged.
    func testLinearColorspaceResizesInLinearLight() async throws {
        var stripes = PixelBuffer(width: 64, height: 64)
        for y in 0..<64 { for x in 0..<64 { let v: UInt8 = x % 2 == 0 ? 0 : 255; stripes[x, y] = RGBA(r: v, g: v, b: v) } }
        origin.route("/stripes.png", .bytes(try ImageCoders.shared.encode(Image(pixels: stripes), as: .png), contentType: "image/png"))
        let source = origin.url("/stripes.png").absoluteString
        let plain = try await serve(["--allow-loopback-sources"])
        let linear = try await serve(["--allow-loopback-sources"], environment: ["IMGPROXY_USE_LINEAR_COLORSPACE": "true"])
        func grey(_ base: String, _ path: String) async throws -> Int {
            let response = try await get(base + path)
            XCTAssertEqual(response.status, 200)
            return Int(try ImageCoders.shared.decode(response.body).pixels[4, 4].r)
        }
        let imgproxy = "/insecure/rs:fit:8:8/plain/\(source)@png", thumbor = "/unsafe/8x8/\(source)"
        let plainGrey = try await grey(plain, imgproxy), linearGrey = try await grey(linear, imgproxy)
        XCTAssertEqual(plainGrey, 128, accuracy: 3)
        XCTAssertEqual(linearGrey, 188, accuracy: 2)
        let thumborGrey = try await grey(linear, thumbor)
        XCTAssertEqual(thumborGrey, 128, accuracy: 3, "an imgproxy setting")
    }

    /// `IMGPROXY_ENFORCE_THUMBNAIL` and `eth`: a HEIC or AVIF source's thumbnail item (flat
    /// magenta, 16 × 12) is processed instead of its main image (quadrants, 64 × 48).
    func testEnforcedThumbnailsAreProcessedInsteadOfTheMainImage() async throws {
        for name in ["heic/thumbnail_differs.heic", "avif/thumbnail_differs.avif"] {
            origin.route("/" + name, .bytes(try Fixtures.formatData(name), contentType: "image/" + (name.hasSuffix("avif") ? "avif" : "heic")))
        }
        let defaults = try await serve(["--allow-loopback-sources"])
        let enforcing = try await serve(["--allow-loopback-sources"], environment: ["IMGPROXY_ENFORCE_THUMBNAIL": "true"])
        func answer(_ base: String, _ options: String, _ name: String) async throws -> PixelBuffer {
            let response = try await get(base + "/insecure/rs:fit:40:40/\(options)plain/\(origin.url("/" + name).absoluteString)@png")
            XCTAssertEqual(response.status, 200, name)
            return try ImageCoders.shared.decode(response.body).pixels
        }
        for name in ["heic/thumbnail_differs.heic", "avif/thumbnail_differs.avif"] {
            for (base, options) in [(defaults, "eth:1/"), (enforcing, "")] {
                let thumbnail = try await answer(base, options, name)
                XCTAssertEqual(thumbnail.size, PixelSize(width: 16, height: 12), "\(name) \(options)")
                XCTAssertEqual(Int(thumbnail[8, 6].g), 30, accuracy: 10, "magenta")
            }
            for (base, options) in [(defaults, ""), (enforcing, "eth:0/")] {
                let main = try await answer(base, options, name)
                XCTAssertEqual(main.size, PixelSize(width: 40, height: 30), "\(name) \(options)")
            }
        }
    }

    /// thumbor's engine writes a WebP of quality 100 losslessly: from the `quality(100)` filter
    /// or `WEBP_QUALITY = 100` (`--format-quality webp=100`); an imgproxy URL's stays lossy.
    func testThumborWritesWebPOfQuality100Losslessly() async throws {
        var noise = PixelBuffer(width: 24, height: 16)
        for y in 0..<16 { for x in 0..<24 { noise[x, y] = RGBA(r: UInt8((x * 37 + y * 11) & 255), g: UInt8((x * y * 7) & 255), b: UInt8((y * 53) & 255)) } }
        origin.route("/noise.png", .bytes(try ImageCoders.shared.encode(Image(pixels: noise), as: .png), contentType: "image/png"))
        let source = origin.url("/noise.png").absoluteString
        let plain = try await serve(["--allow-loopback-sources"])
        let webp100 = try await serve(["--allow-loopback-sources", "--format-quality", "webp=100"])
        func isLossless(_ base: String, _ path: String) async throws -> Bool {
            let response = try await get(base + path)
            XCTAssertEqual(response.status, 200, path)
            let lossless = response.body.count > 16 && response.body[12..<16] == Data("VP8L".utf8)
            if lossless { XCTAssertEqual(try ImageCoders.shared.decode(response.body).pixels, noise, "\(path): exact") }
            return lossless
        }
        let filter100 = try await isLossless(plain, "/unsafe/filters:format(webp):quality(100)/\(source)")
        XCTAssertTrue(filter100, "quality(100)")
        let filter99 = try await isLossless(plain, "/unsafe/filters:format(webp):quality(99)/\(source)")
        XCTAssertFalse(filter99)
        let configured = try await isLossless(webp100, "/unsafe/filters:format(webp)/\(source)")
        XCTAssertTrue(configured, "WEBP_QUALITY = 100")
        let imgproxy = try await isLossless(webp100, "/insecure/plain/\(source)@webp")
        XCTAssertFalse(imgproxy, "imgproxy's WebP of quality 100 is lossy")
    }

    /// `IMGPROXY_SOURCE_URL_QUERY_SEPARATOR`: a `local://` source's key is cut from its query at
    /// `?` by default, at the separator given, and nowhere when it is empty (the file's name
    /// then holds the `?`). Each file is a flat picture of its own colour.
    func testTheSourceQuerySeparatorSplitsLocalSources() async throws {
        let root = folder.appending("local")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for (name, red) in [("photo.png", 200), ("photo.png?v=1", 50)] {
            let pixels = PixelBuffer(width: 8, height: 8, fill: RGBA(r: UInt8(red), g: 0, b: 0))
            try ImageCoders.shared.encode(Image(pixels: pixels), as: .png).write(to: root.appendingPathComponent(name))
        }
        func red(_ arguments: [String], _ environment: [String: String], _ source: String) async throws -> Int? {
            let base = try await serve(["--local-root", root.path] + arguments, environment: environment)
            let response = try await get(base + "/insecure/rs:fit:4:4/" + URLSafeBase64.encode(Array(source.utf8)) + ".png")
            guard response.status == 200 else { return nil }
            return Int(try ImageCoders.shared.decode(response.body).pixels[1, 1].r)
        }
        let byDefault = try await red([], [:], "local:///photo.png?v=1")
        XCTAssertEqual(byDefault, 200, "the query is cut off at ?")
        let none = try await red([], ["IMGPROXY_SOURCE_URL_QUERY_SEPARATOR": ""], "local:///photo.png?v=1")
        XCTAssertEqual(none, 50, "empty: the ? is part of the file's name")
        let other = try await red(["--source-url-query-separator", "@@"], [:], "local:///photo.png@@v=2")
        XCTAssertEqual(other, 200, "cut at the separator given")
        let otherKeepsQuestionMarks = try await red(["--source-url-query-separator", "@@"], [:], "local:///photo.png?v=1@@v=2")
        XCTAssertEqual(otherKeepsQuestionMarks, 50)
    }

    /// `IMGPROXY_ENABLE_DEBUG_HEADERS`: the source's bytes and size and the result's size, on
    /// the answer that made it and on memory hits; none by default.
    func testDebugHeadersDescribeTheSourceAndTheResult() async throws {
        let photo = try Fixtures.data(Fixtures.bench("testjfif_1024.jpg"))
        let header = try ImageCoders.shared.header(of: photo)
        let path = "/insecure/rs:fit:200:200/plain/\(origin.url("/photo.jpg").absoluteString)@png"
        let debugging = try await serve(["--allow-loopback-sources"], environment: ["IMGPROXY_ENABLE_DEBUG_HEADERS": "true"])
        for _ in 0..<2 {
            let response = try await get(debugging + path)
            XCTAssertEqual(response.status, 200)
            let made = try ImageCoders.shared.decode(response.body).pixels
            XCTAssertEqual(response.headers.first(name: "X-Origin-Content-Length"), String(photo.count))
            XCTAssertEqual(response.headers.first(name: "X-Origin-Width"), String(header.pixelSize.width))
            XCTAssertEqual(response.headers.first(name: "X-Origin-Height"), String(header.pixelSize.height))
            XCTAssertEqual(response.headers.first(name: "X-Result-Width"), String(made.width))
            XCTAssertEqual(response.headers.first(name: "X-Result-Height"), String(made.height))
        }
        let plain = try await get(try await serve(["--allow-loopback-sources"]) + path)
        XCTAssertNil(plain.headers.first(name: "X-Origin-Width"))
    }

    func testPNGInterlacedWritesAdam7ForImgproxyURLs() async throws {
        let plain = try await photo(try await serve(["--allow-loopback-sources"]), "png")
        let interlaced = try await photo(try await serve(["--allow-loopback-sources"], environment: ["IMGPROXY_PNG_INTERLACED": "true"]), "png")
        XCTAssertEqual(plain[28], 0)
        XCTAssertEqual(interlaced[28], 1, "IHDR's interlace method is Adam7")
        XCTAssertEqual(try ImageCoders.shared.decode(interlaced).pixels, try ImageCoders.shared.decode(plain).pixels)
    }

    func testPNGQuantizeWritesPalettesOfAtMostTheColoursForImgproxyURLs() async throws {
        let plain = try await photo(try await serve(["--allow-loopback-sources"]), "png")
        let server = try await serve(["--allow-loopback-sources", "--png-quantization-colors", "32"], environment: ["IMGPROXY_PNG_QUANTIZE": "true"])
        let quantized = try await photo(server, "png")
        XCTAssertEqual(plain[25], 2, "truecolour without the setting")
        XCTAssertEqual([quantized[24], quantized[25]], [8, 3], "IHDR: 8 bits a pixel, colour type 3, a palette")
        // PLTE follows IHDR: its length is 3 bytes a colour.
        XCTAssertEqual(String(decoding: quantized[37..<41], as: UTF8.self), "PLTE")
        XCTAssertLessThanOrEqual(quantized[33..<37].reduce(0) { $0 << 8 | Int($1) }, 32 * 3)
        XCTAssertLessThan(quantized.count, plain.count / 2)
        let difference = PixelDifference(try ImageCoders.shared.decode(quantized).pixels, try ImageCoders.shared.decode(plain).pixels)
        XCTAssertLessThan(difference.mean, 10, "32 dithered colours stay near the photo: \(difference)")
        let thumbor = try await get(server + "/unsafe/300x0/filters:format(png)/\(origin.url("/photo.jpg").absoluteString)")
        XCTAssertEqual(thumbor.body[25], 2, "thumbor URLs stay truecolour, as thumbor writes them")
        await assertServeRefused(["--png-quantization-colors", "257"])
    }

    func testJSONLogsAreOneObjectALineWithImgproxysKeys() async throws {
        let base = try await serve(["--allow-loopback-sources"], environment: ["IMGPROXY_LOG_FORMAT": "json"])
        _ = try await photo(base, "png")
        let gcp = try await serve(["--allow-loopback-sources", "--log-format", "gcp"])
        _ = try await photo(gcp, "png")
        let structured = try await serve(["--allow-loopback-sources", "--log-format", "structured"])
        _ = try await photo(structured, "png")

        let jsonLine = try XCTUnwrap(servers[0].errorOutput.split(separator: "\n").first)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(jsonLine.utf8)) as? [String: Any], String(jsonLine))
        XCTAssertEqual(object["level"] as? String, "INFO")
        XCTAssertEqual(object["msg"] as? String, "request")
        XCTAssertEqual(object["status"] as? Int, 200, "a number, as imgproxy writes it")
        XCTAssertEqual(object["method"] as? String, "GET")
        XCTAssertEqual(object["cache"] as? String, "made")
        XCTAssertTrue((object["path"] as? String)?.hasPrefix("/w:300/plain/") == true, "\(object)")
        XCTAssertGreaterThan(object["bytes"] as? Int ?? 0, 1000)
        let time = try XCTUnwrap(object["time"] as? String)
        XCTAssertNotNil(ISO8601DateFormatter().date(from: time), time)

        let gcpLine = try XCTUnwrap(servers[1].errorOutput.split(separator: "\n").first)
        let gcpObject = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(gcpLine.utf8)) as? [String: Any])
        XCTAssertEqual(gcpObject["severity"] as? String, "INFO")
        XCTAssertEqual(gcpObject["message"] as? String, "request")
        XCTAssertNil(gcpObject["level"])

        let structuredLine = try XCTUnwrap(servers[2].errorOutput.split(separator: "\n").first)
        XCTAssertTrue(structuredLine.hasPrefix("time=") && structuredLine.contains(" level=INFO msg=request ")
                      && structuredLine.contains(" status=200"), String(structuredLine))
        await assertServeRefused(["--log-format", "xml"])
    }

    func testPrometheusBindMovesTheMetricsAndTheNamespaceRenamesThem() async throws {
        let base = try await serve(["--allow-loopback-sources", "--prometheus-bind", "127.0.0.1:0"],
                                   environment: ["IMGPROXY_PROMETHEUS_NAMESPACE": "imgproxy"])
        _ = try await photo(base, "png")
        let onMainPort = try await get(base + "/metrics")
        XCTAssertEqual(onMainPort.status, 404, "with a bind of their own the metrics leave the main port")
        let metricsBase = try XCTUnwrap(servers.last?.metricsURL)
        let samples = try await metrics(metricsBase)
        XCTAssertEqual(samples["imgproxy_requests_total"], 1, "\(samples.keys.sorted())")
        XCTAssertEqual(samples[#"imgproxy_status_codes_total{status="200"}"#], 1)
        XCTAssertEqual(samples["imgproxy_request_duration_seconds_count"], 1)
        XCTAssertFalse(samples.keys.contains { $0.hasPrefix("webimage_") }, "every name is in the namespace")
        let anyPath = try await get(metricsBase + "/anything")
        XCTAssertEqual(anyPath.status, 200, "imgproxy's metrics server answers every path")
        let posted = try await get(metricsBase + "/metrics", method: .POST)
        XCTAssertEqual(posted.status, 405)
        await assertServeRefused(["--prometheus-bind", "nowhere"])
        await assertServeRefused(["--prometheus-namespace", "9lives"])
    }

    func testTheSecretAdmitsOnlyRequestsCarryingItMemoryHitsToo() async throws {
        let base = try await serve(["--allow-loopback-sources"], environment: ["IMGPROXY_SECRET": "s3cr3t"])
        let url = base + "/insecure/w:300/plain/\(origin.url("/photo.jpg").absoluteString)@png"
        let bare = try await get(url)
        XCTAssertEqual(bare.status, 403)
        XCTAssertEqual(String(decoding: bare.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines), "Forbidden")
        let wrong = try await get(url, headers: [("Authorization", "Bearer s3cr3")])
        XCTAssertEqual(wrong.status, 403)
        let made = try await get(url, headers: [("Authorization", "Bearer s3cr3t")])
        XCTAssertEqual(made.status, 200)
        let hit = try await get(url, headers: [("Authorization", "Bearer s3cr3t")])
        XCTAssertEqual(hit.body, made.body)
        let hitWithout = try await get(url)
        XCTAssertEqual(hitWithout.status, 403, "a result in memory is no way around the secret")
        let health = try await get(base + "/health")
        XCTAssertEqual(health.status, 200, "the service endpoints need no secret, as in imgproxy")
        XCTAssertNil(try ImageServer.Configuration(environment: [:], arguments: ["--secret="]).listening.secret,
                     "an empty secret is none, not one no request can carry")
        let lines = try XCTUnwrap(servers.last).errorOutput.split(separator: "\n")
        XCTAssertEqual(lines.filter { $0.contains("status=403") }.count, 3, "each refusal is logged")
        XCTAssertFalse(lines.contains { $0.contains("s3cr3t") }, "the secret is never logged")
    }

    func testPresetsComeFromAFileAndFromAListWithItsOwnSeparator() async throws {
        let file = folder.appending("presets.txt")
        try "# thumbnails\n\nthumb=rs:fit:40:40\n  wide=w:120  \n".write(to: file, atomically: true, encoding: .utf8)
        let base = try await serve(["--allow-loopback-sources", "--only-presets"],
                                   environment: ["IMGPROXY_PRESETS_PATH": file.path, "IMGPROXY_PRESETS_SEPARATOR": ";",
                                                 "IMGPROXY_PRESETS": "tiny=w:10;low=q:20"])
        let source = origin.url("/photo.jpg").absoluteString
        for (preset, width) in [("thumb", 40), ("wide", 120), ("tiny", 10)] {
            let response = try await get(base + "/insecure/\(preset)/plain/\(source)@png")
            XCTAssertEqual(response.status, 200, preset)
            XCTAssertEqual(try ImageCoders.shared.decode(response.body).pixelWidth, width, preset)
        }
        let unknown = try await get(base + "/insecure/thumbnails/plain/\(source)@png")
        XCTAssertEqual(unknown.status, 400, "a comment line is no preset")
        let effective = try ImageServer.Configuration(environment: ["IMGPROXY_PRESETS_SEPARATOR": ";", "IMGPROXY_PRESETS": "a=w:1;b=q:20,c"],
                                                      arguments: ["--preset", "c=w:3"])
        XCTAssertEqual(effective.urls.presets, ["c=w:3"], "the flag replaces the variable")
        let separatedByFlag = try ImageServer.Configuration(environment: ["IMGPROXY_PRESETS": "a=w:1;b=q:20,c"],
                                                            arguments: ["--presets-separator", ";"])
        XCTAssertEqual(separatedByFlag.urls.presets, ["a=w:1", "b=q:20,c"], "the separator applies wherever it is given")
        XCTAssertEqual(try ImageServer.Configuration(environment: ["IMGPROXY_PRESETS_SEPARATOR": ";", "IMGPROXY_PRESETS": "a=w:1;b=q:20,c"])
            .urls.presets, ["a=w:1", "b=q:20,c"], "a comma is no separator when another is set")
        await assertServeRefused(["--presets-path", folder.appending("missing.txt").path])
    }

    func testIgnoringSSLVerificationFetchesFromASelfSignedOrigin() async throws {
        let tlsFolder = folder.appending("tls")
        try FileManager.default.createDirectory(at: tlsFolder, withIntermediateDirectories: true)
        let certificate = try SelfSignedCertificate(in: tlsFolder)
        let secure = try await LoopbackHTTPServer.start(tls: LoopbackTLSIdentity(certificateFile: certificate.certificateFile.path,
                                                                                 privateKeyFile: certificate.privateKeyFile.path))
        secure.route("/photo.jpg", .bytes(try Fixtures.data(Fixtures.bench("testjfif_256.jpg")), contentType: "image/jpeg"))
        let path = "/insecure/w:50/plain/\(secure.url("/photo.jpg").absoluteString)@png"
        let verifying = try await get(try await serve(["--allow-loopback-sources"]) + path)
        XCTAssertNotEqual(verifying.status, 200, "a self-signed certificate is refused by default")
        XCTAssertEqual(secure.requests.count, 0, "no request got past the handshake")
        let trusting = try await get(try await serve(["--allow-loopback-sources"], environment: ["IMGPROXY_IGNORE_SSL_VERIFICATION": "true"]) + path)
        XCTAssertEqual(trusting.status, 200)
        XCTAssertEqual(try ImageCoders.shared.decode(trusting.body).pixelWidth, 50)
        try await secure.stop()
    }

    func testTheCanonicalHeaderNamesAnHTTPSource() async throws {
        let plain = try await serve(["--allow-loopback-sources"])
        let canonical = try await serve(["--allow-loopback-sources", "--set-canonical-header"])
        let source = origin.url("/photo.jpg").absoluteString
        let without = try await get(plain + "/insecure/w:300/plain/\(source)@png")
        XCTAssertNil(without.headers.first(name: "Link"))
        let with = try await get(canonical + "/insecure/w:300/plain/\(source)@png")
        XCTAssertEqual(with.headers.first(name: "Link"), "<\(source)>; rel=\"canonical\"")
        XCTAssertNil(ImageAnswers.canonicalLink(to: URL(fileURLWithPath: "/srv/a.jpg")), "only http and https sources")
        XCTAssertEqual(ImageAnswers.canonicalLink(to: try XCTUnwrap(URL(string: "http://a.test/%3Cx%3E.jpg?q=%22"))),
                       "<http://a.test/%3Cx%3E.jpg?q=%22>; rel=\"canonical\"")
    }

    func testPreferredFormatsKeepAPreferredSourceFormatAndConvertTheRestAsImgproxyDoes() async throws {
        origin.route("/opaque.webp", .bytes(try Fixtures.imageData("webp/sd_TestImageStatic.webp"), contentType: "image/webp"))
        origin.route("/clear.webp", .bytes(try Fixtures.imageData("webp/pil_transparent.webp"), contentType: "image/webp"))
        let plain = try await serve(["--allow-loopback-sources"])
        let preferring = try await serve(["--allow-loopback-sources"], environment: ["IMGPROXY_PREFERRED_FORMATS": "jpeg,png,gif"])
        func format(_ base: String, _ file: String) async throws -> ImageFormat? {
            let response = try await get(base + "/insecure/w:50/plain/\(origin.url("/\(file)").absoluteString)")
            XCTAssertEqual(response.status, 200, file)
            return ImageFormat(detecting: response.body)
        }
        let kept = try await format(plain, "opaque.webp")
        XCTAssertEqual(kept, .webp, "without preferred formats the source's is kept")
        let converted = try await format(preferring, "opaque.webp")
        XCTAssertEqual(converted, .jpeg, "WebP is not preferred: the first preferred, JPEG")
        let transparent = try await format(preferring, "clear.webp")
        XCTAssertEqual(transparent, .png, "JPEG has no alpha: the first preferred that suits")
        let preferredSource = try await format(preferring, "photo.jpg")
        XCTAssertEqual(preferredSource, .jpeg)
        let named = try await get(preferring + "/insecure/w:50/plain/\(origin.url("/opaque.webp").absoluteString)@webp")
        XCTAssertEqual(ImageFormat(detecting: named.body), .webp, "a URL naming its format wins")
        await assertServeRefused(["--preferred-format", "svg"])
    }

    func testPrintedConfigurationShowsEverySettingWithItsOriginAndMasksSecrets() throws {
        let effective = try ConfigurationReading(
            environment: ["IMGPROXY_KEY": Self.key, "IMGPROXY_SALT": Self.salt, "IMGPROXY_QUALITY": "70", "IMGPROXY_SECRET": "s3cr3t",
                          "WEBIMAGE_REDIS_URL": "redis://:hun@ter2@127.0.0.1:6379/0", "IMGPROXY_BASE_URL": "https://u:pw@cdn.test/a@b"],
            arguments: ["--quality", "75", "--webp-effort=6"]).effectiveSettings
        XCTAssertEqual(effective.map(\.flag), ImageServer.Configuration.settings.map(\.flag), "every setting, in the table's order")
        let byFlag = Dictionary(uniqueKeysWithValues: effective.map { ($0.flag, $0) })
        XCTAssertEqual(byFlag["quality"]?.line, "--quality 75  # flag", "a flag wins over its variable")
        XCTAssertEqual(byFlag["webp-effort"]?.text, "6")
        XCTAssertEqual(byFlag["key"]?.line, "--key ********  # $IMGPROXY_KEY")
        XCTAssertEqual(byFlag["salt"]?.text, "********")
        XCTAssertEqual(byFlag["secret"]?.text, "********")
        XCTAssertEqual(byFlag["redis"]?.text, "redis://********@127.0.0.1:6379/0", "masked to the authority's last @")
        XCTAssertEqual(byFlag["base-url"]?.text, "https://********@cdn.test/a@b", "an @ in the path is no credential")
        XCTAssertEqual(byFlag["graceful-stop-timeout"]?.line, "--graceful-stop-timeout twice --timeout  # default")
        XCTAssertEqual(byFlag["avif-speed"]?.line, "--avif-speed 8  # default")
        XCTAssertFalse(effective.contains { $0.text.contains(Self.key) || $0.text.contains("ter2") || $0.text.contains("pw") || $0.text.contains("s3cr3t") })
        XCTAssertThrowsError(try ConfigurationReading(environment: ["IMGPROXY_QUALITY": "0"], arguments: []))
    }
}
