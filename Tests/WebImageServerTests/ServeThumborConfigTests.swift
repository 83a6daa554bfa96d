import Foundation
import WebImage
import WebImageCodecs
@testable import WebImageServer
import WebImageTestSupport
import XCTest

/// `--thumbor-config`: every setting thumbor reads has a rule, and a real server started from a
/// `thumbor.conf` answers as its settings say, under the environment and the flags.
final class ServeThumborConfigTests: ServeTestCase {
    /// A `thumbor.conf` holding `text`, in the test's folder.
    private func conf(_ text: String, name: String = "thumbor.conf") throws -> String {
        let path = folder.appending(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testEveryThumborSettingHasARuleAndTheArticleListsThem() throws {
        let listed = try String(contentsOf: Fixtures.subset.root.appendingPathComponent("thumbor/settings.txt"), encoding: .utf8)
            .split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && !$0.isEmpty }
        XCTAssertEqual(listed.count, 134)
        let rules = ImageServer.Configuration.thumborSettings
        XCTAssertEqual(rules.map(\.name), listed, "each of thumbor's settings once, in thumbor's order")
        let flags = Set(ImageServer.Configuration.settings.map(\.flag))
        for rule in rules {
            if case .setting(let flag) = rule.handling { XCTAssertTrue(flags.contains(flag), "\(rule.name) → --\(flag)") }
        }
        let names = Set(listed)
        let article = try String(contentsOf: ServerConfigurationTests.configurationArticle, encoding: .utf8)
        let lines: [String] = article.split(separator: "\n").map(String.init)
        let rows = lines.filter { (row: String) -> Bool in
            let name = String(row.dropFirst(3).prefix { $0 != "`" })
            return row.hasPrefix("| `") && names.contains(name)
        }
        let expected = rules.map(\.markdownRow)
        assertArticleTable(rows, expected, "thumbor-settings")
    }

    func testAThumborConfLiesUnderTheEnvironmentAndFlagsWithWarningsAndOrigins() throws {
        let path = try conf("""
            QUALITY = 30
            MAX_PIXELS = 2.5e6
            WEBP_QUALITY = 20
            AVIF_QUALITY = 25
            ALLOW_ANIMATED_GIFS = False
            HTTP_LOADER_FOLLOW_REDIRECTS = False
            SECURITY_KEY = 'thumbor-key'
            STORAGE = 'thumbor.storages.file_storage'
            QUALTY = 5
            DETECTORS = []
            FILTERS = ['thumbor.filters.\(ImageServer.Configuration.builtinThumborFilters.sorted().joined(separator: "', 'thumbor.filters."))']
            """)
        let reading = try ConfigurationReading(environment: ["WEBIMAGE_THUMBOR_CONFIG": path, "IMGPROXY_MAX_REDIRECTS": "4"],
                                               arguments: ["--quality", "70"])
        let configuration = reading.configuration
        XCTAssertEqual(configuration.output.quality, 70, "a flag wins over the file")
        XCTAssertEqual(configuration.sources.maxRedirects, 4, "the environment wins over the file")
        XCTAssertEqual(configuration.limits.maxSrcResolution, 2.5, "pixels there, megapixels here")
        XCTAssertEqual(configuration.output.formatQuality, [.webp: 20, .avif: 25], "two settings of thumbor's join in one list")
        XCTAssertEqual(configuration.limits.maxAnimationFrames, 1)
        XCTAssertEqual(configuration.urls.thumborKey, "thumbor-key")
        XCTAssertEqual(configuration.thumborConfig, path)
        XCTAssertEqual(reading.warnings, [
            "\(path):8 STORAGE is ignored here: sources are kept by the memory, disk (--cache-dir) and Redis tiers here",
            "\(path):9 QUALTY is no setting thumbor reads; did you mean QUALITY?",
        ])
        let byFlag = Dictionary(uniqueKeysWithValues: reading.effectiveSettings.map { ($0.flag, $0) })
        XCTAssertEqual(byFlag["max-src-resolution"]?.line, "--max-src-resolution 2.5  # \(path):2 MAX_PIXELS")
        XCTAssertEqual(byFlag["format-quality"]?.line, "--format-quality webp=20,avif=25  # \(path):3 WEBP_QUALITY, AVIF_QUALITY")
        XCTAssertEqual(byFlag["thumbor-key"]?.line, "--thumbor-key ********  # \(path):7 SECURITY_KEY")
        XCTAssertEqual(byFlag["quality"]?.origin, .flag)
        XCTAssertEqual(byFlag["thumbor-config"]?.origin, .variable("WEBIMAGE_THUMBOR_CONFIG"))

        func refusal(_ text: String) -> String {
            do {
                _ = try ConfigurationReading(environment: [:], arguments: ["--thumbor-config", try conf(text, name: "refused.conf")])
                return "read"
            } catch {
                return "\(error)"
            }
        }
        let refused = folder.appending("refused.conf").path
        XCTAssertEqual(refusal("\nDETECTORS = ['thumbor.detectors.face_detector']"),
                       "\(refused):2 DETECTORS is not supported here (smart crops use the image's own features here; no face or feature detector runs); leave it [], thumbor's default")
        let filters = refusal("FILTERS = ['thumbor.filters.blur']")
        XCTAssertTrue(filters.hasPrefix("\(refused):1 FILTERS is not supported here (every built-in filter is answered here; "
                                        + "a list without some of them is not enforced); leave it ['thumbor.filters.background_color', "), filters)
        XCTAssertEqual(refusal("QUALITY = 'high'"), "\(refused):1 QUALITY is not a whole number")
        XCTAssertEqual(refusal("QUALITY = 101"), "\(refused):1 QUALITY is outside 1…100")
        XCTAssertEqual(refusal("ALLOWED_SOURCES = ['([']"), "\(refused):1 ALLOWED_SOURCES has \"([\", which is no regular expression")
        XCTAssertEqual(refusal("HEALTHCHECK_ROUTE = '/health(check)?'"),
                       "\(refused):1 HEALTHCHECK_ROUTE is a pattern; only a path, with an optional /? after it, is read here")
        XCTAssertEqual(refusal("PILLOW_RESAMPLING_FILTER = 'LANCZOS'\nUPLOAD_ENABLED = False\nURL_SIGNER = 'libthumbor.url_signers.base64_hmac_sha1'"),
                       "read", "thumbor's defaults are taken")
        XCTAssertEqual(refusal("QUALITY = f(1)"), "\(refused):1 names f, which is not a literal; write the value itself")
    }

    func testSettingsAreReadAsThumborReadsThem() throws {
        func reading(_ text: String) throws -> ConfigurationReading {
            try ConfigurationReading(environment: [:], arguments: ["--thumbor-config", try conf(text)])
        }
        let path = folder.appending("thumbor.conf").path
        let redirects = try reading("HTTP_LOADER_FOLLOW_REDIRECTS = False\nHTTP_LOADER_MAX_REDIRECTS = 5\nQUALITY = 10; QUALITY = 20")
        XCTAssertEqual(redirects.configuration.sources.maxRedirects, 0, "False wins, wherever MAX_REDIRECTS is written")
        XCTAssertEqual(redirects.configuration.output.quality, 20, "the last of two assignments on one line")
        XCTAssertEqual(redirects.warnings, ["\(path):2 HTTP_LOADER_MAX_REDIRECTS is ignored here: thumbor reads it only with HTTP_LOADER_FOLLOW_REDIRECTS True, its default"])
        XCTAssertEqual(try reading("HTTP_LOADER_FOLLOW_REDIRECTS = True\nHTTP_LOADER_MAX_REDIRECTS = 5").configuration.sources.maxRedirects, 5)

        let rootOnly = try reading("FILE_LOADER_ROOT_PATH = '/srv/images'")
        XCTAssertNil(rootOnly.configuration.sources.localRoot, "thumbor's http_loader reads no files")
        XCTAssertEqual(rootOnly.warnings, ["\(path):1 FILE_LOADER_ROOT_PATH is ignored here: thumbor reads it only with LOADER naming a file loader"])
        let flagged = try ConfigurationReading(environment: ["THUMBOR_LOADER": "file"], arguments: ["--thumbor-config", path]).configuration
        XCTAssertEqual(flagged.sources.localRoot, "/srv/images", "the environment's loader reads files, so the file's root is read")
        let fileLoader = try reading("LOADER = 'thumbor.loaders.file_loader'\nFILE_LOADER_ROOT_PATH = '/srv/images'").configuration
        XCTAssertEqual(fileLoader.sources.localRoot, "/srv/images")
        XCTAssertEqual(fileLoader.sources.thumborLoader, .file)

        let speeds = try ["AVIF_SPEED = 0", "AVIF_SPEED = None", "AVIF_SPEED = 10", "AVIF_SPEED = 3"].map { try reading($0).configuration.output.avifSpeed }
        XCTAssertEqual(speeds, [8, 8, 9, 3], "0 and None are Pillow's default in thumbor; 10, its fastest, is the fastest here")
        XCTAssertEqual(try reading("HEIF_QUALITY = None").configuration.output.formatQuality, [.heic: 75], "thumbor writes HEIF at 75 then")
        let stop = try reading("MAX_WAIT_SECONDS_BEFORE_SERVER_SHUTDOWN = 3\nMAX_WAIT_SECONDS_BEFORE_IO_SHUTDOWN = 0")
        XCTAssertNil(stop.configuration.listening.gracefulStopTimeout, "0 cuts no request under way off")
        XCTAssertEqual(stop.warnings.count, 1)
        XCTAssertEqual(try reading("MAX_WAIT_SECONDS_BEFORE_IO_SHUTDOWN = 5").configuration.listening.gracefulStopTimeout, 5)
        XCTAssertThrowsError(try reading("ENABLE_ORIGINAL_PHOTO_UPLOAD = True"), "an alias is read as its setting") { error in
            XCTAssertTrue("\(error)".hasPrefix("\(path):1 ENABLE_ORIGINAL_PHOTO_UPLOAD is not supported here"), "\(error)")
        }

        let sources = try reading("import re\nALLOWED_SOURCES = ['~odd.example', 'plain.example']").configuration.sources.thumborAllowedSources
        let allowed = { (url: String) in sources.contains { $0.matches(URL(string: url)!) } }
        XCTAssertEqual([allowed("http://~odd.example/a.jpg"), allowed("http://~oddxexample/a.jpg"), allowed("http://odd.example/a.jpg"),
                        allowed("http://plain.example/a.jpg")], [true, false, false, true], "a host starting ~ is a host, as thumbor reads it")
        XCTAssertThrowsError(try reading("import re\nALLOWED_SOURCES = [re.compile('a\\nb')]")) { error in
            XCTAssertEqual("\(error)", "\(path):2 ALLOWED_SOURCES holds a compiled pattern, which has a line break; write the pattern on one line")
        }
    }

    func testAServerFromAThumborConfAnswersAsItsSettingsSay() async throws {
        origin.route("/turned.jpg", .bytes(try Fixtures.data(Fixtures.image("jpeg/pil_hopper_orientation_6.jpg")), contentType: "image/jpeg"))
        origin.route("/other/photo.jpg", .bytes(try Fixtures.data(Fixtures.bench("testjfif_256.jpg")), contentType: "image/jpeg"))
        let photo = origin.url("/photo.jpg").absoluteString, other = origin.url("/other/photo.jpg").absoluteString
        let turned = origin.url("/turned.jpg").absoluteString
        let plain = try await serve(["--allow-loopback-sources"])
        let path = try conf("""
            import re
            ALLOWED_SOURCES = [re.compile(r'http://127\\.0\\.0\\.1:\\d+/(photo|turned)\\.jpg'), 'no-such.example']
            RESPECT_ORIENTATION = False
            WEBP_QUALITY = 10
            HEALTHCHECK_ROUTE = '/status/?'
            """)
        let configured = try await serve(["--allow-loopback-sources", "--thumbor-config", path])

        let allowed = try await get(configured + "/unsafe/100x0/\(photo)")
        XCTAssertEqual(allowed.status, 200)
        let refused = try await get(configured + "/unsafe/100x0/\(other)")
        XCTAssertEqual(refused.status, 404, "refused as a source outside the allowed sources is")
        XCTAssertTrue(String(decoding: refused.body, as: UTF8.self).contains("matches none of the allowed sources"))
        let unbounded = try await get(plain + "/unsafe/100x0/\(other)")
        XCTAssertEqual(unbounded.status, 200)

        let plainWebP = try await get(plain + "/unsafe/300x0/filters:format(webp)/\(photo)").body
        let tunedWebP = try await get(configured + "/unsafe/300x0/filters:format(webp)/\(photo)").body
        XCTAssertLessThan(tunedWebP.count, plainWebP.count * 2 / 3, "WEBP_QUALITY 10 is much smaller than --quality's 80")
        let askedWebP = try await get(configured + "/unsafe/300x0/filters:format(webp):quality(80)/\(photo)").body
        XCTAssertEqual(askedWebP, plainWebP, "the URL's quality filter wins")

        let upright = try ImageCoders.shared.decode(try await get(plain + "/unsafe/64x0/filters:format(png)/\(turned)").body).pixels
        let asStored = try ImageCoders.shared.decode(try await get(configured + "/unsafe/64x0/filters:format(png)/\(turned)").body).pixels
        let left = PixelDifference(asStored, upright), turnedHere = PixelDifference(asStored.applying(.right), upright)
        XCTAssertGreaterThan(left.mean, 4 * turnedHere.mean, "RESPECT_ORIENTATION = False leaves the EXIF turn undone")

        let status = try await get(configured + "/status")
        XCTAssertEqual(status.status, 200, "HEALTHCHECK_ROUTE's path, its /? dropped")
        let healthcheck = try await get(plain + "/healthcheck")
        XCTAssertEqual([healthcheck.status], [200])
        XCTAssertEqual(String(decoding: healthcheck.body, as: UTF8.self).trimmingCharacters(in: .newlines), "WORKING", "thumbor's /healthcheck answer")
        let slashed = try await get(plain + "/healthcheck/")
        XCTAssertEqual(slashed.status, 200)
        let imgproxyOnly = try await get(try await serve(["--url-format", "imgproxy"]) + "/healthcheck")
        XCTAssertNotEqual(imgproxyOnly.status, 200, "only while thumbor URLs are answered")
    }
}
