import Foundation
import WebImage
@testable import WebImageServer
import XCTest

/// Cases of imgproxy's `options/parser/processing_options_test.go`, `presets_test.go` and
/// `handlers/path_test.go` that the other parser tests did not carry: their URLs and the values
/// imgproxy's tests expect, read through ``ProcessingURLParser``.
final class ImgproxyParserCasesTests: XCTestCase {
    private let parser = ProcessingURLParser()

    private func options(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws -> ProcessingOptions {
        try parser.parse("/unsafe/\(path)/plain/http://images.dev/lorem/ipsum.jpg").options
    }

    /// TestParsePathFocusPoint, TestParsePathGravityReplicate*, TestParsePathCrop*.
    func testGravityAndCropForms() throws {
        XCTAssertEqual(try options("g:fp:0.5:0.75").gravity, Gravity(kind: .focusPoint, x: 0.5, y: 0.75))
        XCTAssertThrowsError(try options("g:re"), "re is a watermark position, no gravity")
        XCTAssertThrowsError(try options("crop:100:200:re"))
        let crop = try options("crop:100:200").crop
        XCTAssertEqual(crop?.width, 100)
        XCTAssertEqual(crop?.height, 200)
        XCTAssertNil(crop?.gravity, "a crop naming no gravity follows the main one")
        XCTAssertEqual(try options("crop:100:200:nowe:10:20").crop?.gravity, Gravity(kind: .northWest, x: 10, y: 20))
    }

    /// TestParsePathBackground*: a colour, and `bg:` with no arguments resetting it.
    func testBackgroundResets() throws {
        XCTAssertEqual(try options("bg:128:129:130").background, RGBA(r: 128, g: 129, b: 130))
        XCTAssertEqual(try options("bg:ffddee").background, RGBA(r: 255, g: 221, b: 238))
        XCTAssertNil(try options("bg:fff/bg:").background)
    }

    /// TestParsePathSize*: `size`'s third argument is `enlarge`, its fourth `extend`.
    func testSizeCarriesEnlargeAndExtend() throws {
        let sized = try options("size:100:200:1:1")
        XCTAssertEqual([sized.width, sized.height], [100, 200])
        XCTAssertTrue(sized.enlarge)
        XCTAssertTrue(sized.extend)
        XCTAssertFalse(try options("s:100:200").enlarge)
    }

    /// TestParsePathPreset (two presets in one option) and presets_test.go's definitions.
    func testPresetsInOneOptionAndTheirDefinitions() throws {
        let presets = try ProcessingPresets(definitions: ["test1=resizing_type:fill", "test2=blur:0.2/quality:50"])
        let both = try ProcessingURLParser(presets: presets).parse("/unsafe/preset:test1:test2/plain/http://images.dev/lorem/ipsum.jpg").options
        XCTAssertEqual(both.resizingType, .fill)
        XCTAssertEqual(both.blurSigma, 0.2)
        XCTAssertEqual(both.quality, 50)
        // presets_test.go: definitions are checked at start; blanks and comments are skipped.
        XCTAssertThrowsError(try ProcessingPresets(definitions: ["test="]), "a preset without options")
        XCTAssertThrowsError(try ProcessingPresets(definitions: ["=resize:fit:100:200/sharpen:2"]), "a preset without a name")
        XCTAssertThrowsError(try ProcessingPresets(definitions: ["resize:fit:100:200/sharpen:2"]), "no name=")
        XCTAssertThrowsError(try ProcessingPresets(definitions: ["test=resize:fit:100:200/sharpen:2/blur"]), "blur without its argument")
        XCTAssertThrowsError(try ProcessingPresets(definitions: ["test=resize:fit:-1:-2/sharpen:2"]), "negative sides")
        XCTAssertEqual(try ProcessingPresets(definitions: ["test=resize:fit:100:200/sharpen:2"]).options["test"],
                       ["resize:fit:100:200", "sharpen:2"])
        XCTAssertEqual(try ProcessingPresets(definitions: ["   "]).options, [:])
        XCTAssertEqual(try ProcessingPresets(definitions: ["#  test=resize:fit:100:200/sharpen:2"]).options, [:])
    }

    /// TestParseBase64URLWithBase, TestParsePlainURLWithBase, TestParsePlainURLEscapedWithBase:
    /// the base URL is put before the source as written, unless the source starts with it.
    func testTheBaseURLPrefixesEverySource() throws {
        var based = ProcessingURLParser()
        based.baseURL = "http://images.dev/"
        let origin = "lorem/ipsum.jpg?param=value"
        let encoded = URLSafeBase64.encode(origin.utf8)
        let base64 = try based.parse("/unsafe/size:100:100/\(encoded).png")
        XCTAssertEqual(base64.source.absoluteString, "http://images.dev/lorem/ipsum.jpg?param=value")
        XCTAssertEqual(base64.options.format, .png)
        XCTAssertEqual(try based.parse("/unsafe/size:100:100/plain/lorem/ipsum.jpg@png").source.absoluteString,
                       "http://images.dev/lorem/ipsum.jpg")
        XCTAssertEqual(try based.parse("/unsafe/size:100:100/plain/lorem%2Fipsum.jpg%3Fparam%3Dvalue@png").source.absoluteString,
                       "http://images.dev/lorem/ipsum.jpg?param=value")
        XCTAssertEqual(try based.parse("/unsafe/plain/http://images.dev/a.jpg").source.absoluteString, "http://images.dev/a.jpg")
    }

    /// TestParseBase64URLWithReplacement, TestParsePlainURLWithReplacement: replacements apply
    /// in order, each to what the one before made, `${1}` standing for the first `*`.
    func testURLReplacementsRewriteSourcesInOrder() throws {
        var replacing = ProcessingURLParser()
        replacing.urlReplacements = [URLReplacement(pattern: "test://*/", replacement: "test2://images.dev/${1}/dolor/"),
                                     URLReplacement(pattern: "test2://", replacement: "http://")]
        let encoded = URLSafeBase64.encode("test://lorem/ipsum.jpg?param=value".utf8)
        let base64 = try replacing.parse("/unsafe/size:100:100/\(encoded).png")
        XCTAssertEqual(base64.source.absoluteString, "http://images.dev/lorem/dolor/ipsum.jpg?param=value")
        XCTAssertEqual(base64.options.format, .png)
        let plain = try replacing.parse("/unsafe/size:100:100/plain/test://lorem/ipsum.jpg@png")
        XCTAssertEqual(plain.source.absoluteString, "http://images.dev/lorem/dolor/ipsum.jpg")
        XCTAssertEqual(plain.options.format, .png)
        XCTAssertEqual(try replacing.parse("/unsafe/plain/http://other.dev/a.jpg").source.absoluteString, "http://other.dev/a.jpg",
                       "a source the patterns do not start is left as it is")
    }

    /// The references a replacement may hold: each `*` takes the longest run (not past a `/`)
    /// that lets the pattern match, as a greedy `[^/]*` does.
    func testReplacementReferences() throws {
        let cases: [(String, String, String, String)] = [
            ("http://*.cdn.dev/", "https://$1.images.dev/", "http://a.b.cdn.dev/x.jpg", "https://a.b.images.dev/x.jpg"),
            ("http://*-*/", "http://${2}/${1}/", "http://one-two-three/x.jpg", "http://three/one-two/x.jpg"),
            ("s3://*/", "http://store.dev/${1}$$/${9}", "s3://bucket/key.png", "http://store.dev/bucket$/key.png"),
            ("http://*", "http://mirror.dev/$1", "http://host/a/b.jpg", "http://mirror.dev/host/a/b.jpg"),
        ]
        for (pattern, replacement, source, expected) in cases {
            XCTAssertEqual(URLReplacement(pattern: pattern, replacement: replacement).apply(to: source), expected, pattern)
        }
        XCTAssertNil(URLReplacement(setting: "no equals sign"))
    }

    /// TestParseBase64URLWithFilename: with IMGPROXY_BASE64_URL_INCLUDES_FILENAME the last of
    /// several base64 segments names the file and is not decoded.
    func testABase64SourceMayEndWithAFileName() throws {
        var named = ProcessingURLParser()
        named.base64URLIncludesFilename = true
        let encoded = URLSafeBase64.encode("http://images.dev/lorem/ipsum.jpg?param=value".utf8)
        let url = try named.parse("/unsafe/size:100:100/\(encoded).png/puppy.jpg")
        XCTAssertEqual(url.source.absoluteString, "http://images.dev/lorem/ipsum.jpg?param=value")
        XCTAssertEqual(url.options.format, .png)
        XCTAssertEqual(try named.parse("/unsafe/size:100:100/\(encoded)").source.absoluteString,
                       "http://images.dev/lorem/ipsum.jpg?param=value", "one segment is the URL")
        XCTAssertThrowsError(try parser.parse("/unsafe/size:100:100/\(encoded).png/puppy.jpg"), "without the setting, the name is decoded too")
    }

    /// TestParseWithArgumentsSeparator.
    func testAnotherArgumentsSeparator() throws {
        var commas = ProcessingURLParser(presets: try ProcessingPresets(definitions: ["small=w,10"], separator: ","))
        commas.argumentsSeparator = ","
        let options = try commas.parse("/unsafe/size,100,100,1/plain/http://images.dev/lorem/ipsum.jpg").options
        XCTAssertEqual([options.width, options.height], [100, 100])
        XCTAssertTrue(options.enlarge)
        XCTAssertEqual(try commas.parse("/unsafe/pr,small/plain/http://images.dev/lorem/ipsum.jpg").options.width, 10)
    }

    /// TestParsePathOnlyPresets and TestParseBase64URLOnlyPresets: the segment before the
    /// source names presets, and nothing else is read as options.
    func testOnlyPresets() throws {
        var presetsOnly = ProcessingURLParser(presets: try ProcessingPresets(definitions: ["test1=blur:0.2", "test2=quality:50"]))
        presetsOnly.onlyPresets = true
        let plain = try presetsOnly.parse("/unsafe/test1:test2/plain/http://images.dev/lorem/ipsum.jpg@png")
        XCTAssertEqual(plain.options.blurSigma, 0.2)
        XCTAssertEqual(plain.options.quality, 50)
        XCTAssertEqual(plain.options.format, .png)
        XCTAssertEqual(plain.source.absoluteString, "http://images.dev/lorem/ipsum.jpg")
        let origin = "http://images.dev/lorem/ipsum.jpg?param=value"
        let encoded = URLSafeBase64.encode(origin.utf8)
        let base64 = try presetsOnly.parse("/unsafe/test1:test2/\(encoded).png")
        XCTAssertEqual(base64.source.absoluteString, origin)
        XCTAssertEqual(base64.options.quality, 50)
        XCTAssertThrowsError(try presetsOnly.parse("/unsafe/w:10/plain/http://images.dev/lorem/ipsum.jpg")) {
            XCTAssertEqual($0 as? ProcessingURLError, .unknownPreset("w"))
        }
    }

    /// TestParseAllowedOptions: only the listed options (by any name), presets' contents free.
    func testAllowedOptions() throws {
        var limited = ProcessingURLParser(presets: try ProcessingPresets(definitions: ["test1=blur:0.2"]))
        limited.allowedOptions = ["w", "h", "pr"]
        let source = "/plain/http://images.dev/lorem/ipsum.jpg"
        XCTAssertNoThrow(try limited.parse("/unsafe/w:100/h:200" + source))
        XCTAssertNoThrow(try limited.parse("/unsafe/w:100/h:200/pr:test1" + source))
        XCTAssertNoThrow(try limited.parse("/unsafe/width:100/height:200" + source))
        for forbidden in ["/unsafe/w:100/h:200/blur:10", "/unsafe/w:100/h:200/pr:test1/blur:10"] {
            XCTAssertThrowsError(try limited.parse(forbidden + source)) {
                XCTAssertEqual($0 as? ProcessingURLError, .forbiddenOption("blur"))
            }
        }
    }

    /// TestParsePathClientHints and …Redefine: the hints are where a URL starts; its own wins.
    func testClientHints() throws {
        let path = "/unsafe/plain/http://images.dev/lorem/ipsum.jpg@png"
        let cases: [(ClientHints?, Int, Double)] = [
            (nil, 0, 1), (ClientHints(width: 100), 100, 1), (ClientHints(dpr: 2), 0, 2), (ClientHints(dpr: 2, width: 100), 50, 2),
        ]
        for (hints, width, dpr) in cases {
            let options = try parser.parse(path, clientHints: hints).options
            XCTAssertEqual(options.width, width, "\(String(describing: hints))")
            XCTAssertEqual(options.dpr, dpr, "\(String(describing: hints))")
        }
        let redefined = try parser.parse("/unsafe/width:150/dpr:3.0/plain/http://images.dev/lorem/ipsum.jpg@png",
                                         clientHints: ClientHints(dpr: 2, width: 100)).options
        XCTAssertEqual(redefined.width, 150)
        XCTAssertEqual(redefined.dpr, 3)
        // Hostile field values are dropped, not trusted.
        XCTAssertNil(ClientHints(dpr: "nan", width: "-5", limits: ProcessingURLLimits()))
        XCTAssertEqual(ClientHints(dpr: " 2 ", width: "999999", limits: ProcessingURLLimits()), ClientHints(dpr: 2))
    }

    /// TestParseBase64URLWithoutExtension, TestParsePlainURLEscaped and the path tests' query:
    /// the source is read as written, a query after the path is not part of it.
    func testSourcesAsImgproxyReadsThem() throws {
        let encoded = URLSafeBase64.encode("http://images.dev/lorem/ipsum.jpg".utf8)
        let base64 = try parser.parse("/unsafe/w:10/\(encoded)")
        XCTAssertEqual(base64.source.absoluteString, "http://images.dev/lorem/ipsum.jpg")
        XCTAssertNil(base64.options.format, "no extension: the source's own format")
        let escaped = try parser.parse("/unsafe/w:10/plain/http%3A%2F%2Fimages.dev%2Florem%2Fipsum.jpg%3Fparam%3Dvalue@png")
        XCTAssertEqual(escaped.source.absoluteString, "http://images.dev/lorem/ipsum.jpg?param=value")
        XCTAssertEqual(escaped.options.format, .png)
        let queried = try parser.parse("/unsafe/w:10/plain/http://images.dev/lorem/ipsum.jpg?param1=value1&param2=value2")
        XCTAssertEqual(queried.source.absoluteString, "http://images.dev/lorem/ipsum.jpg")
        // path_test.go: separators escaped as %3A before a base64 source split by slashes.
        let escapedBase64 = try parser.parse("/dummy_signature/rs%3Afill%3A300%3A200/aHR0cDovL2V4YW1w/bGUuY29tL2EuanBn")
        XCTAssertEqual(escapedBase64.options.resizingType, .fill)
        XCTAssertEqual([escapedBase64.options.width, escapedBase64.options.height], [300, 200])
        XCTAssertEqual(escapedBase64.source.absoluteString, "http://example.com/a.jpg")
    }
}
