import Foundation
import WebImageServer
import WebImageTestSupport
import XCTest

/// ``ImageServer/Configuration``: one place for every setting and its default, read the same
/// from the environment and the command line, and the settings table of the Configuration article
/// (Sources/WebImageServer/WebImageServer.docc/Configuration.md) made from it.
final class ServerConfigurationTests: XCTestCase {
    func testTheEnvironmentIsLaidOverTheDefaultsAndFlagsOverTheEnvironment() throws {
        var configuration = try ImageServer.Configuration(environment: [
            "IMGPROXY_BIND": ":9000", "IMGPROXY_QUALITY": "90", "IMGPROXY_KEY": "aa, bb", "IMGPROXY_AUTO_WEBP": "true",
            "IMGPROXY_MAX_SRC_RESOLUTION": "16.8", "IMGPROXY_TTL": "", "WEBIMAGE_URL_FORMAT": "thumbor", "UNRELATED": "x",
        ])
        XCTAssertEqual(configuration.listening.host, "0.0.0.0")
        XCTAssertEqual(configuration.listening.port, 9000)
        XCTAssertEqual(configuration.output.quality, 90)
        XCTAssertEqual(configuration.urls.keys, ["aa", "bb"])
        XCTAssertTrue(configuration.formats.autoWebp)
        XCTAssertEqual(configuration.limits.maxSrcResolution, 16.8)
        XCTAssertEqual(configuration.urls.urlFormat, .thumbor)
        XCTAssertEqual(configuration.answers.ttl, ImageServer.Configuration().answers.ttl, "an empty variable counts as unset")
        XCTAssertEqual(configuration.formats.acceptedFormats(for: .imgproxy), [.webp])

        try configuration.set(flag: "quality", to: "70")
        try configuration.set(flag: "bind", to: "[::1]:0")
        XCTAssertEqual([configuration.output.quality, configuration.listening.port], [70, 0])
        XCTAssertEqual(configuration.listening.host, "::1")
        XCTAssertTrue(configuration.listening.listensOnLoopback)
    }

    func testWatermarkAndFallbackSourcesReadFromAnyOfTheirSettings() throws {
        var configuration = try ImageServer.Configuration(environment: [
            "IMGPROXY_WATERMARK_DATA": "iVBORw0K", "IMGPROXY_FALLBACK_IMAGE_URL": "https://example.com/f.png",
        ])
        XCTAssertEqual(configuration.overlays.watermark, .data(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A])))
        XCTAssertEqual(configuration.overlays.fallbackImage, .url("https://example.com/f.png"))
        XCTAssertEqual([configuration.overlays.fallbackImageHTTPCode, configuration.overlays.fallbackImageTTL], [200, 60])
        try configuration.set(flag: "watermark-path", to: "/tmp/mark.png")
        XCTAssertEqual(configuration.overlays.watermark, .path("/tmp/mark.png"), "a flag overrides the variable")
    }

    func testAValueASettingDoesNotTakeIsAnErrorNamingWhereItCameFrom() {
        let cases: [([String: String], String)] = [
            (["IMGPROXY_QUALITY": "101"], "IMGPROXY_QUALITY is outside 1…100"),
            (["IMGPROXY_WORKERS": "two"], "IMGPROXY_WORKERS is not a whole number"),
            (["IMGPROXY_AUTO_AVIF": "yes"], "IMGPROXY_AUTO_AVIF is not true or false"),
            (["IMGPROXY_DOWNLOAD_TIMEOUT": "nan"], "IMGPROXY_DOWNLOAD_TIMEOUT is not a number"),
            (["IMGPROXY_BIND": "8080"], "IMGPROXY_BIND is not HOST:PORT"),
            (["WEBIMAGE_URL_FORMAT": "both,imgproxy"], "WEBIMAGE_URL_FORMAT is not imgproxy, thumbor or both"),
            (["IMGPROXY_WATERMARK_DATA": "not base64!"], "IMGPROXY_WATERMARK_DATA is not base64-encoded image data"),
            (["IMGPROXY_FALLBACK_IMAGE_HTTP_CODE": "600"], "IMGPROXY_FALLBACK_IMAGE_HTTP_CODE is outside 200…599"),
            (["IMGPROXY_FALLBACK_IMAGE_HTTP_CODE": "304"], "IMGPROXY_FALLBACK_IMAGE_HTTP_CODE is a status that carries no body"),
            (["IMGPROXY_ALLOWED_PROCESSING_OPTIONS": "w,nope"], "IMGPROXY_ALLOWED_PROCESSING_OPTIONS names \"nope\", which is no imgproxy option"),
            (["IMGPROXY_ARGUMENTS_SEPARATOR": "/"], "IMGPROXY_ARGUMENTS_SEPARATOR is not one character other than / @ ."),
            (["IMGPROXY_URL_REPLACEMENTS": "a://*/=b://;oops"], "IMGPROXY_URL_REPLACEMENTS has \"oops\", which is no PATTERN=REPLACEMENT"),
            (["IMGPROXY_LAST_MODIFIED_BUSTER": "yesterday"],
             "IMGPROXY_LAST_MODIFIED_BUSTER is not an RFC 3339 time such as 2026-01-01T00:00:00Z"),
            (["IMGPROXY_USE_ETAG": "off"], "IMGPROXY_USE_ETAG is not true or false"),
        ]
        for (environment, message) in cases {
            XCTAssertThrowsError(try ImageServer.Configuration(environment: environment)) {
                XCTAssertEqual("\($0)", message)
            }
        }
        let read = try? ImageServer.Configuration(environment: [
            "IMGPROXY_URL_REPLACEMENTS": "test://*/=http://images.dev/${1}/;s3://=http://", "IMGPROXY_LAST_MODIFIED_BUSTER": "2026-01-01T00:00:00Z",
            "IMGPROXY_USE_ETAG": "false"])
        XCTAssertEqual(read?.urls.urlReplacements, ["test://*/=http://images.dev/${1}/", "s3://=http://"])
        XCTAssertEqual(read?.answers.lastModifiedBuster, Date(timeIntervalSince1970: 1_767_225_600))
        XCTAssertEqual(read?.answers.useETag, false)
        var configuration = ImageServer.Configuration()
        XCTAssertThrowsError(try configuration.set(flag: "signature-size", to: "33")) {
            XCTAssertEqual("\($0)", "--signature-size is outside 1…32")
        }
        XCTAssertThrowsError(try configuration.set(flag: "no-such-flag", to: "1")) {
            XCTAssertEqual("\($0)", "--no-such-flag is not a setting")
        }
    }

    func testACommandLineIsReadAsServeReadsItFromTheTable() throws {
        let environment = ["IMGPROXY_QUALITY": "60", "IMGPROXY_TTL": "5", "IMGPROXY_ALLOWED_SOURCES": "http://env/"]
        let configuration = try ImageServer.Configuration(environment: environment, arguments: [
            "--quality=70", "--bind", "127.0.0.1:0", "--auto-webp", "--allowed-sources", "http://a/", "--allowed-sources=http://b/",
            "--url-replacement", "x://=http://", "--url-replacement", "y://=https://", "--max-redirects", "3", "--max-redirects", "4",
        ])
        XCTAssertEqual(configuration.output.quality, 70, "a flag wins over its variable")
        XCTAssertEqual(configuration.answers.ttl, 5, "a variable without a flag is kept")
        XCTAssertEqual(configuration.listening.port, 0)
        XCTAssertTrue(configuration.formats.autoWebp)
        XCTAssertEqual(configuration.sources.allowedSources, ["http://a/", "http://b/"], "a repeated list flag adds up")
        XCTAssertEqual(configuration.urls.urlReplacements, ["x://=http://", "y://=https://"])
        XCTAssertEqual(configuration.sources.maxRedirects, 4, "a later value replaces an earlier one")
        let refusals: [([String], String, Bool)] = [
            (["--no-such-setting"], "--no-such-setting is not a setting", true),
            (["quality"], "quality is not a flag (--NAME)", true),
            (["--quality"], "--quality needs a value (Q)", true),
            (["--thumbor-key", "--auto-webp"], "--thumbor-key needs a value (KEY)", true),
            (["--auto-webp=false"], "--auto-webp takes no value", true),
            (["--max-redirects=-1"], "--max-redirects is outside 0…100", false),
        ]
        for (arguments, message, isUsage) in refusals {
            XCTAssertThrowsError(try ImageServer.Configuration(environment: [:], arguments: arguments), "\(arguments)") { error in
                XCTAssertEqual("\(error)", message)
                XCTAssertEqual((error as? ConfigurationError)?.isUsage, isUsage, message)
            }
        }
        let local = try ImageServer.Configuration(environment: [:], arguments: []).servingLocalSources(from: "/srv/photos")
        XCTAssertEqual(local.sources.localRoot, "/srv/photos", "on loopback the folder is served")
        let open = try ImageServer.Configuration(environment: [:], arguments: ["--bind", "0.0.0.0:80"]).servingLocalSources(from: "/srv")
        XCTAssertNil(open.sources.localRoot, "listening beyond loopback, no folder is served unasked")
    }

    func testObjectStorageCredentialsAreReadButNeverShown() throws {
        var configuration = try ImageServer.Configuration(environment: [
            "IMGPROXY_USE_S3": "true", "IMGPROXY_S3_ENDPOINT": "http://127.0.0.1:9000", "IMGPROXY_S3_ENDPOINT_USE_PATH_STYLE": "false",
            "AWS_ACCESS_KEY_ID": "KEYIDSHOWN", "AWS_SECRET_ACCESS_KEY": "SECRETSHOWN", "AWS_SESSION_TOKEN": "TOKENSHOWN",
        ])
        try configuration.set(flag: "result-storage", to: "s3://results/webimage")
        XCTAssertTrue(configuration.objectStorage.useS3)
        XCTAssertFalse(configuration.objectStorage.s3PathStyle)
        XCTAssertEqual(configuration.objectStorage.s3Endpoint, "http://127.0.0.1:9000")
        XCTAssertEqual([configuration.objectStorage.s3AccessKeyID?.text, configuration.objectStorage.s3SecretAccessKey?.text, configuration.objectStorage.s3SessionToken?.text],
                       ["KEYIDSHOWN", "SECRETSHOWN", "TOKENSHOWN"])
        XCTAssertEqual(configuration.objectStorage.resultStorage, "s3://results/webimage")
        var dumped = ""
        dump(configuration, to: &dumped)
        for text in ["\(configuration)", String(reflecting: configuration), dumped] {
            XCTAssertFalse(text.contains("SHOWN"), "a credential was shown")
        }
    }

    func testEverySettingHasOneFlagAndOneVariable() {
        let settings = ImageServer.Configuration.settings
        XCTAssertEqual(Set(settings.map(\.flag)).count, settings.count)
        let variables = settings.compactMap(\.variable)
        XCTAssertEqual(Set(variables).count, variables.count)
        for setting in settings {
            XCTAssertTrue(setting.help.hasSuffix(")."), setting.help)
            XCTAssertFalse(setting.defaultText.isEmpty, setting.flag)
        }
    }

    /// The Configuration article's table of settings is the one ``ImageServer/Configuration/settings``
    /// makes, row for row: a setting added, removed or changed in code without the article fails here.
    func testTheConfigurationArticleTableIsTheSettingsTable() throws {
        let article = try String(contentsOf: Self.configurationArticle, encoding: .utf8)
        let expected = ImageServer.Configuration.settings.map(\.markdownRow)
        let rows = article.split(separator: "\n").map(String.init).filter { $0.hasPrefix("| `--") }
        assertArticleTable(rows, expected, "settings")
    }

    /// Every variable imgproxy reads (its sources' list, `Tests/Fixtures/imgproxy/variables.txt`) is
    /// a setting here or a ``ForeignVariable``, once; the Configuration article lists the foreign
    /// ones as the code handles them.
    func testEveryImgproxyVariableIsASettingOrHandledAloud() throws {
        let listed = try String(contentsOf: Fixtures.subset.root.appendingPathComponent("imgproxy/variables.txt"), encoding: .utf8)
            .split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && !$0.isEmpty }
        XCTAssertEqual(listed.count, 187)
        let settings = Set(ImageServer.Configuration.settings.compactMap(\.variable))
        let foreign = ImageServer.Configuration.foreignVariables.map(\.name)
        XCTAssertEqual(Set(foreign).count, foreign.count, "each foreign variable once")
        XCTAssertTrue(settings.isDisjoint(with: foreign), "a variable is a setting or foreign, not both")
        // imgproxy Pro's variables read here, which imgproxy's documentation names (its paid tier
        // reads them) and its open-source sources do not.
        let pro: Set = ["IMGPROXY_INFO_PRESETS", "IMGPROXY_INFO_PRESETS_PATH", "IMGPROXY_INFO_ONLY_PRESETS", "IMGPROXY_ALLOWED_INFO_OPTIONS",
                        "IMGPROXY_UNSHARP_MASKING_MODE", "IMGPROXY_UNSHARP_MASKING_WEIGHT", "IMGPROXY_UNSHARP_MASKING_DIVIDER",
                        "IMGPROXY_ALLOW_BYPASS_CACHE", "IMGPROXY_CACHE_TAGS_FORMAT", "IMGPROXY_JPEG_NO_SUBSAMPLE",
                        "IMGPROXY_WEBP_COMPRESSION", "IMGPROXY_WEBP_SMART_SUBSAMPLE", "IMGPROXY_AVIF_SUBSAMPLE",
                        "IMGPROXY_AUTOQUALITY_METHOD", "IMGPROXY_AUTOQUALITY_TARGET", "IMGPROXY_AUTOQUALITY_MIN",
                        "IMGPROXY_AUTOQUALITY_FORMAT_MIN", "IMGPROXY_AUTOQUALITY_MAX", "IMGPROXY_AUTOQUALITY_FORMAT_MAX",
                        "IMGPROXY_AUTOQUALITY_ALLOWED_ERROR", "IMGPROXY_AUTOQUALITY_MAX_RESOLUTION",
                        "IMGPROXY_BEST_FORMAT_COMPLEXITY_THRESHOLD", "IMGPROXY_BEST_FORMAT_MAX_RESOLUTION",
                        "IMGPROXY_BEST_FORMAT_BY_DEFAULT", "IMGPROXY_BEST_FORMAT_ALLOW_SKIPS", "IMGPROXY_COLOR_PROFILES_DIR"]
        XCTAssertTrue(pro.isSubset(of: settings))
        XCTAssertEqual(Set(listed), settings.filter { $0.hasPrefix("IMGPROXY_") }.subtracting(pro).union(foreign),
                       "every variable imgproxy reads is handled, and no name imgproxy does not read")
        let article = try String(contentsOf: Self.configurationArticle, encoding: .utf8)
        let rows = article.split(separator: "\n").map(String.init).filter { $0.hasPrefix("| `IMGPROXY_") }
        let expected = ImageServer.Configuration.foreignVariables.map(\.markdownRow)
        assertArticleTable(rows, expected, "imgproxy-variables")
    }

    func testAForeignVariableIsRefusedUnlessItHoldsImgproxysDefaultAndTyposAreNamed() throws {
        XCTAssertThrowsError(try ImageServer.Configuration(environment: ["IMGPROXY_USE_GCS": "true"])) { error in
            XCTAssertTrue("\(error)".hasPrefix("IMGPROXY_USE_GCS is not supported here ("), "\(error)")
            XCTAssertTrue("\(error)".hasSuffix("leave it false, imgproxy's default"), "\(error)")
        }
        XCTAssertNoThrow(try ImageServer.Configuration(environment: ["IMGPROXY_USE_GCS": "false", "IMGPROXY_PRESERVE_HDR": "0",
                                                                     "IMGPROXY_MAX_RESULT_DIMENSION": "0"]))
        XCTAssertThrowsError(try ImageServer.Configuration(environment: ["IMGPROXY_PRESERVE_HDR": "t"]))
        // Defaults as imgproxy reads them: choices in any case, list items trimmed, blanks unset.
        XCTAssertNoThrow(try ImageServer.Configuration(environment: ["IMGPROXY_NETWORK": "TCP", "IMGPROXY_PREFERRED_FORMATS": "jpeg, PNG,gif",
                                                                     "IMGPROXY_USE_SWIFT": "  "]))
        XCTAssertEqual(try ImageServer.Configuration(environment: ["IMGPROXY_SOURCE_URL_QUERY_SEPARATOR": ""]).sources.sourceURLQuerySeparator, "",
                       "imgproxy reads an empty separator as none, not as unset")
        XCTAssertEqual(try ImageServer.Configuration(environment: ["IMGPROXY_USE_SWIFT": ""]).sources.sourceURLQuerySeparator, "?")
        XCTAssertThrowsError(try ImageServer.Configuration(environment: ["IMGPROXY_HEALTH_CHECK_PATH": "/metrics"]))
        let warnings = ImageServer.Configuration.warnings(for: [
            "IMGPROXY_QUALTY": "70", "IMGPROXY_SENTRY_DSN": "https://sentry.example/1", "IMGPROXY_QUALITY": "70",
            "IMGPROXY_NO_SUCH_THING_AT_ALL": "1", "IMGPROXY_VIPS_LEAK_CHECK": "", "HOME": "/root",
        ])
        XCTAssertEqual(warnings.count, 3, "\(warnings)")
        XCTAssertEqual(warnings.first { $0.hasPrefix("IMGPROXY_QUALTY") }, "IMGPROXY_QUALTY is no variable imgproxy reads; did you mean IMGPROXY_QUALITY?")
        XCTAssertEqual(warnings.first { $0.hasPrefix("IMGPROXY_NO_SUCH") }, "IMGPROXY_NO_SUCH_THING_AT_ALL is no variable imgproxy reads")
        XCTAssertTrue(warnings.contains { $0.hasPrefix("IMGPROXY_SENTRY_DSN is ignored here: ") }, "\(warnings)")
    }

    /// The README no longer holds a settings table: one table, in the Configuration article.
    func testTheReadmeHoldsNoSettingsTable() throws {
        let readme = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        XCTAssertFalse(readme.split(separator: "\n").contains { $0.hasPrefix("| `--") }, "settings rows belong in Configuration.md")
    }

    /// Where the settings table lives: the server's DocC catalog.
    static var configurationArticle: URL {
        Fixtures.packageRoot.appendingPathComponent("Sources/WebImageServer/WebImageServer.docc/Configuration.md")
    }
}
