import Foundation
import WebImage
import WebImageServer
import XCTest

/// imgproxy's URL forms, option names and short forms, presets, and the typed errors for bad input.
final class ProcessingURLParserTests: XCTestCase {
    /// A parser that reads imgproxy's security options too.
    private let parser: ProcessingURLParser = {
        var parser = ProcessingURLParser()
        parser.allowSecurityOptions = true
        return parser
    }()

    func testPlainSourceWithExtensionAndShortOptions() throws {
        let url = try parser.parse("/insecure/rs:fill:300:400:1/g:sowe/q:70/plain/http%3A%2F%2Fexample.com%2Fimages%2Fcat.jpg@webp")
        XCTAssertEqual(url.signature, "insecure")
        XCTAssertEqual(url.signedPath, "/rs:fill:300:400:1/g:sowe/q:70/plain/http%3A%2F%2Fexample.com%2Fimages%2Fcat.jpg@webp")
        XCTAssertEqual(url.source.absoluteString, "http://example.com/images/cat.jpg")
        XCTAssertEqual(url.options.resizingType, .fill)
        XCTAssertEqual(url.options.width, 300)
        XCTAssertEqual(url.options.height, 400)
        XCTAssertTrue(url.options.enlarge)
        XCTAssertEqual(url.options.gravity, Gravity(kind: .southWest))
        XCTAssertEqual(url.options.quality, 70)
        XCTAssertEqual(url.options.format, .webp)
    }

    func testPlainSourceMayKeepItsSlashesUnencoded() throws {
        let url = try parser.parse("/_/w:100/plain/https://example.com/a/b.png")
        XCTAssertEqual(url.source.absoluteString, "https://example.com/a/b.png")
        XCTAssertEqual(url.options.width, 100)
        XCTAssertNil(url.options.format)
    }

    func testEncodedSourceSplitBySlashesWithExtension() throws {
        // The example path of imgproxy's signing guide.
        let url = try parser.parse("/sig/rs:fill:300:400:0/g:sm/aHR0cDovL2V4YW1w/bGUuY29tL2ltYWdl/cy9jdXJpb3NpdHku/anBn.png")
        XCTAssertEqual(url.source.absoluteString, "http://example.com/images/curiosity.jpg")
        XCTAssertEqual(url.options.format, .png)
        XCTAssertEqual(url.options.gravity.kind, .smart)
        XCTAssertFalse(url.options.enlarge)
    }

    func testLongNamesMatchShortNames() throws {
        let long = try parser.parse("/x/resize:fit:10:20/resizing_type:force/width:11/height:12/dpr:2/enlarge:true"
            + "/gravity:noea:5:6/quality:50/format:png/blur:1.5/rotate:-90/background:255:0:10/crop:0.5:100:we"
            + "/auto_rotate:false/strip_metadata:f/cachebuster:v2/expires:1700000000/filename:cat.png"
            + "/return_attachment:1/plain/http://h/x")
        let short = try parser.parse("/x/rs:fit:10:20/rt:force/w:11/h:12/dpr:2/el:t/g:noea:5:6/q:50/f:png/bl:1.5"
            + "/rot:270/bg:ff000a/c:0.5:100:we/ar:0/sm:0/cb:v2/exp:1700000000/fn:Y2F0LnBuZw:1/att:true/plain/http://h/x")
        XCTAssertEqual(long.options, short.options)
        let o = long.options
        XCTAssertEqual(o.resizingType, .force)
        XCTAssertEqual([o.width, o.height], [11, 12])
        XCTAssertEqual(o.dpr, 2)
        XCTAssertEqual(o.gravity, Gravity(kind: .northEast, x: 5, y: 6))
        XCTAssertEqual(o.rotation, 270)
        XCTAssertEqual(o.background, RGBA(r: 255, g: 0, b: 10, a: 255))
        XCTAssertEqual(o.crop, ProcessingCrop(width: 0.5, height: 100, gravity: Gravity(kind: .west)))
        XCTAssertFalse(o.autoRotate)
        XCTAssertFalse(o.stripMetadata)
        XCTAssertEqual(o.cacheBuster, "v2")
        XCTAssertEqual(o.expires, 1_700_000_000)
        XCTAssertEqual(o.filename, "cat.png")
        XCTAssertTrue(o.returnAttachment)
    }

    func testEmptyMetaOptionArgumentsKeepEarlierValues() throws {
        let url = try parser.parse("/x/w:50/h:60/rs:fill::70/s::/plain/http://h/x")
        XCTAssertEqual(url.options.resizingType, .fill)
        XCTAssertEqual(url.options.width, 50)
        XCTAssertEqual(url.options.height, 70)
    }

    func testExtensionOverridesTheFormatOption() throws {
        XCTAssertEqual(try parser.parse("/x/f:png/plain/http://h/x@jpg").options.format, .jpeg)
        XCTAssertEqual(try parser.parse("/x/ext:avif/plain/http://h/x").options.format, .avif)
    }

    func testPresetsExpandInPlaceAndDefaultAppliesFirst() throws {
        let presets = try ProcessingPresets(definitions: ["default=q:60/w:10", "thumb=rs:fill:100:100/pr:sharp", "sharp=bl:0.5"])
        let parser = ProcessingURLParser(presets: presets)
        let plain = try parser.parse("/x/plain/http://h/x")
        XCTAssertEqual(plain.options.quality, 60)
        XCTAssertEqual(plain.options.width, 10)
        let thumb = try parser.parse("/x/pr:thumb/h:90/plain/http://h/x")
        XCTAssertEqual(thumb.options.resizingType, .fill)
        XCTAssertEqual([thumb.options.width, thumb.options.height], [100, 90])
        XCTAssertEqual(thumb.options.blurSigma, 0.5)
        XCTAssertEqual(thumb.options.quality, 60)
        XCTAssertThrowsError(try parser.parse("/x/preset:nope/plain/http://h/x")) {
            XCTAssertEqual($0 as? ProcessingURLError, .unknownPreset("nope"))
        }
    }

    /// imgproxy's TestParsePathPresetLoopDetection: presets naming each other apply once each;
    /// only nesting past the limit is an error.
    func testPresetsNamingEachOtherApplyOnceEach() throws {
        let parser = ProcessingURLParser(presets: try ProcessingPresets(definitions: [
            "test1=resizing_type:fill/preset:test2", "test2=blur:0.2/preset:test1",
        ]))
        let looped = try parser.parse("/x/preset:test1/plain/http://images.dev/lorem/ipsum.jpg").options
        XCTAssertEqual(looped.resizingType, .fill)
        XCTAssertEqual(looped.blurSigma, 0.2)
        let twice = try parser.parse("/x/preset:test2/pr:test2/plain/http://images.dev/lorem/ipsum.jpg").options
        XCTAssertEqual(twice.blurSigma, 0.2)
        let chain = (0...ProcessingURLLimits().maxPresetDepth).map { "p\($0)=w:1/pr:p\($0 + 1)" } + ["p\(ProcessingURLLimits().maxPresetDepth + 1)=w:2"]
        XCTAssertThrowsError(try ProcessingURLParser(presets: try ProcessingPresets(definitions: chain)).parse("/x/pr:p0/plain/http://h/x")) { error in
            guard case .presetTooDeep = error as? ProcessingURLError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try ProcessingPresets(definitions: ["=w:1"]))
        XCTAssertThrowsError(try ProcessingPresets(definitions: ["name"]))
    }

    func testCanonicalKeyIgnoresSpellingOrderAndSignature() throws {
        let a = try parser.parse("/one/w:100/h:50/el:1/plain/http://h/x.jpg@png")
        let b = try parser.parse("/two/enlarge:true/size:100:50/format:png/fn:a.png/plain/http%3A%2F%2Fh%2Fx.jpg")
        XCTAssertEqual(a.cacheKey, b.cacheKey)
        let c = try parser.parse("/one/w:100/h:50/el:1/cb:2/plain/http://h/x.jpg@png")
        XCTAssertNotEqual(a.cacheKey, c.cacheKey)
        XCTAssertNotEqual(a.cacheKey, try parser.parse("/one/w:101/h:50/el:1/plain/http://h/x.jpg@png").cacheKey)
    }

    func testSmartGravityIsKeyedAndTakesNoOffsets() throws {
        let smart = try parser.parse("/one/rs:fill:100:50/g:sm/plain/http://h/x.jpg")
        let spelledOut = try parser.parse("/two/resize:fill:100:50/gravity:sm/plain/http://h/x.jpg")
        XCTAssertEqual(smart.cacheKey, spelledOut.cacheKey)
        XCTAssertTrue(smart.options.canonicalKey.contains("g:sm:0:0"), smart.options.canonicalKey)
        XCTAssertNotEqual(smart.cacheKey, try parser.parse("/one/rs:fill:100:50/g:ce/plain/http://h/x.jpg").cacheKey)
        let cropped = try parser.parse("/one/c:50:50:sm/plain/http://h/x.jpg")
        XCTAssertEqual(cropped.options.crop?.gravity, Gravity(kind: .smart))
        XCTAssertNotEqual(cropped.cacheKey, try parser.parse("/one/c:50:50:ce/plain/http://h/x.jpg").cacheKey)
        for (path, option) in [("/s/g:sm:1:1/plain/http://h/x", "gravity"), ("/s/g:sm:0/plain/http://h/x", "gravity"),
                               ("/s/c:10:10:sm:5:5/plain/http://h/x", "crop")] {
            XCTAssertThrowsError(try parser.parse(path), path) { error in
                XCTAssertEqual(error as? ProcessingURLError,
                               .invalidArgument(option: option, reason: "smart gravity takes no offsets"), path)
            }
        }
    }

    func testLocalSources() throws {
        XCTAssertEqual(try parser.parse("/x/plain/local:///photos/a.jpg").source.path, "/photos/a.jpg")
    }

    /// imgproxy's parser reads three hexadecimal digits as CSS does, and any 64-bit `expires`.
    func testThreeDigitColoursAndAny64BitExpiry() throws {
        XCTAssertEqual(try parser.parse("/sig/bg:fff/plain/http://h/x").options.background, RGBA(r: 255, g: 255, b: 255, a: 255))
        XCTAssertEqual(try parser.parse("/sig/bg:F0c/plain/http://h/x").options.background, RGBA(r: 255, g: 0, b: 204, a: 255))
        XCTAssertEqual(try parser.parse("/sig/exp:9223372036854775807/plain/http://h/x").options.expires, Int.max)
        XCTAssertEqual(try parser.parse("/sig/exp:-1/plain/http://h/x").options.expires, -1)
    }

    /// imgproxy reads `%3A` as an option separator, and puts back the slashes a proxy merged in
    /// a plain source (`http:/host` → `http://host`).
    func testEscapedSeparatorsAndMergedSlashes() throws {
        let escaped = try parser.parse("/sig/rs%3Afill%3A300%3A200/q%3a70/plain/http://h/x.jpg")
        XCTAssertEqual([escaped.options.width, escaped.options.height, escaped.options.quality], [300, 200, 70])
        XCTAssertEqual(escaped.options.resizingType, .fill)
        XCTAssertEqual(try parser.parse("/sig/w:10/plain/http:/h/x.jpg").source.absoluteString, "http://h/x.jpg")
        XCTAssertEqual(try parser.parse("/sig/w:10/plain/https:/h/x.jpg").source.absoluteString, "https://h/x.jpg")
        XCTAssertEqual(try parser.parse("/sig/w:10/plain/local:/a/b.png").source.absoluteString, "local:///a/b.png")
        XCTAssertEqual(try parser.parse("/sig/w:10/plain/http://h/x.jpg").source.absoluteString, "http://h/x.jpg")
    }

    func testMalformedInputIsATypedErrorWithAReason() {
        let cases: [(String, ProcessingURLError)] = [
            ("", .missingPart("leading /")),
            ("/", .missingPart("signature segment")),
            ("/sig", .missingPart("signature segment")),
            ("/sig/w:10", .missingPart("source URL")),
            ("/sig/vignette:2/plain/http://h/x", .unknownOption("vignette")),
            ("/sig/w:abc/plain/http://h/x", .invalidArgument(option: "width", reason: "\"abc\" is not an integer")),
            ("/sig/w:99999999/plain/http://h/x", .invalidArgument(option: "width", reason: "99999999 is outside 0…16384")),
            ("/sig/w:1:2/plain/http://h/x", .invalidArgument(option: "width", reason: "takes at most 1 argument(s)")),
            ("/sig/rt:stretch/plain/http://h/x",
             .invalidArgument(option: "resizing_type", reason: "\"stretch\" is not fit, fill, fill-down, force or auto")),
            ("/sig/rot:45/plain/http://h/x", .invalidArgument(option: "rotate", reason: "45 is not a multiple of 90")),
            ("/sig/q:101/plain/http://h/x", .invalidArgument(option: "quality", reason: "101 is outside 0…100")),
            ("/sig/dpr:0/plain/http://h/x", .invalidArgument(option: "dpr", reason: "must be above 0")),
            ("/sig/bl:nan/plain/http://h/x", .invalidArgument(option: "blur", reason: "\"nan\" is not a number")),
            ("/sig/el:yes/plain/http://h/x", .invalidArgument(option: "enlarge", reason: "\"yes\" is not a boolean")),
            ("/sig/g:up/plain/http://h/x", .invalidArgument(option: "gravity", reason: "\"up\" is not a gravity type")),
            ("/sig/bg:12345/plain/http://h/x", .invalidArgument(option: "background", reason: "\"12345\" is not RRGGBB or RGB")),
            ("/sig/bg:+fffff/plain/http://h/x", .invalidArgument(option: "background", reason: "\"+fffff\" is not RRGGBB or RGB")),
            ("/sig/exp:99999999999999999999/plain/http://h/x", .invalidArgument(option: "expires", reason: "\"99999999999999999999\" is not an integer")),
            ("/sig/f:bmp/plain/http://h/x", .unwritableFormat("bmp")),
            ("/sig/plain/http://h/x@bmp", .unwritableFormat("bmp")),
            ("/sig/plain/ftp://h/x", .invalidSource("scheme must be http, https, local or s3")),
            ("/sig/plain/http%ZZ", .invalidSource("bad percent-encoding")),
            ("/sig/plain/notaurl", .invalidSource("not an absolute URL")),
            ("/sig/a+b/c", .invalidSource("not URL-safe base64")),
            ("/sig/enc/abc", .invalidSource("encrypted source URLs are not supported")),
            ("/sig/plain/http://1.2.3.4:99999/x.jpg", .invalidSource("it has port 99999, outside 1…65535")),
            ("/sig/plain/http%3A%2F%2F1.2.3.4%3A0%2Fx.jpg", .invalidSource("it has port 0, outside 1…65535")),
            ("/sig/aHR0cDovLzEuMi4zLjQ6OTk5OTkveC5qcGc", // http://1.2.3.4:99999/x.jpg
             .invalidSource("it has port 99999, outside 1…65535")),
            ("/sig/plain/https://h:123456789012345678901234/x.jpg", .invalidSource("it has a port outside 1…65535")),
            ("/sig/plain/http:///x.jpg", .invalidSource("it has no host")),
        ]
        for (path, expected) in cases {
            XCTAssertThrowsError(try parser.parse(path), path) { error in
                XCTAssertEqual(error as? ProcessingURLError, expected, path)
                XCTAssertFalse("\(error)".contains("\n"), path)
            }
        }
    }

    func testLimitsOnLengthAndOptionCount() {
        let long = "/s/plain/http://h/" + String(repeating: "a", count: 9000)
        XCTAssertThrowsError(try parser.parse(long)) {
            XCTAssertEqual($0 as? ProcessingURLError, .pathTooLong(length: long.utf8.count, limit: 8192))
        }
        let many = "/s/" + String(repeating: "w:1/", count: 65) + "plain/http://h/x"
        XCTAssertThrowsError(try parser.parse(many)) { XCTAssertEqual($0 as? ProcessingURLError, .tooManyOptions(limit: 64)) }
    }

    func testErrorMessagesDoNotEchoControlCharactersOrLongInput() {
        let hostile = "/s/" + String(repeating: "\u{1B}x", count: 100) + ":1/plain/http://h/x"
        XCTAssertThrowsError(try parser.parse(hostile)) { error in
            let text = "\(error)"
            XCTAssertFalse(text.contains("\u{1B}"))
            XCTAssertLessThan(text.count, 80)
        }
    }

    /// imgproxy's processing_options_test.go TestParsePathExtend, …ExtendSmartGravity and
    /// …ExtendReplicateGravity; extend_aspect_ratio and rs's extend arguments read the same way.
    func testExtendTakesAGravityOfItsOwn() throws {
        let o = try parser.parse("/x/extend:1:so:10:20/plain/http://h/x").options
        XCTAssertTrue(o.extend)
        XCTAssertEqual(o.extendGravity, Gravity(kind: .south, x: 10, y: 20))
        XCTAssertEqual(o.gravity, .centre, "the main gravity is the fill crop's, untouched")
        let resize = try parser.parse("/x/rs:fit:10:20:0:1:no:0:0.5/exar:1:ea/plain/http://h/x").options
        XCTAssertEqual(resize.extendGravity, Gravity(kind: .north, x: 0, y: 0.5))
        XCTAssertTrue(resize.extendAspectRatio)
        XCTAssertEqual(resize.extendAspectRatioGravity, Gravity(kind: .east))
        XCTAssertEqual(try parser.parse("/x/extend_ar:1/plain/http://h/x").options.extendAspectRatio, true)
        XCTAssertEqual(try parser.parse("/x/ex:1/plain/http://h/x").options.extendGravity, .centre)
        for path in ["/x/extend:1:sm/plain/http://h/x", "/x/extend:1:re/plain/http://h/x", "/x/exar:1:no:1:2:3/plain/http://h/x"] {
            XCTAssertThrowsError(try parser.parse(path), path)
        }
    }

    /// imgproxy's apply.go defaults: padding fills missing sides in CSS's order; flip takes each
    /// axis; trim's empty threshold turns it off; zoom's one factor is both.
    func testPaddingFlipTrimZoomAndLimits() throws {
        func options(_ path: String) throws -> ProcessingOptions { try parser.parse("/x/\(path)/plain/http://h/x").options }
        XCTAssertEqual(try options("pd:10").padding, ProcessingPadding(top: 10, right: 10, bottom: 10, left: 10))
        XCTAssertEqual(try options("pd:10:20").padding, ProcessingPadding(top: 10, right: 20, bottom: 10, left: 20))
        XCTAssertEqual(try options("padding:10:20:30").padding, ProcessingPadding(top: 10, right: 20, bottom: 30, left: 20))
        XCTAssertEqual(try options("pd:1:2:3:4").padding, ProcessingPadding(top: 1, right: 2, bottom: 3, left: 4))
        XCTAssertEqual([try options("fl:1").flipHorizontal, try options("fl:1").flipVertical], [true, false])
        XCTAssertEqual([try options("flip:0:t").flipHorizontal, try options("flip:0:t").flipVertical], [false, true])
        XCTAssertEqual(try options("t:10:fff:1:0").trim,
                       ProcessingTrim(threshold: 10, colour: RGBA(r: 255, g: 255, b: 255), equalHorizontal: true))
        XCTAssertNil(try options("t:10/trim:").trim)
        let zoom = try options("z:1.5")
        XCTAssertEqual([zoom.zoomX, zoom.zoomY], [1.5, 1.5])
        let zoom2 = try options("zoom:2:0.5")
        XCTAssertEqual([zoom2.zoomX, zoom2.zoomY], [2, 0.5])
        XCTAssertEqual([try options("mw:30").minWidth, try options("min-height:40").minHeight], [30, 40])
        XCTAssertEqual(try options("mrd:640").maxResultDimension, 640)
        let limits = try options("msr:2.5/msfs:1000/maf:3/mafr:0.5").sourceLimits
        XCTAssertEqual([limits.maxSrcResolution, limits.maxAnimationFrameResolution], [2.5, 0.5])
        XCTAssertEqual([limits.maxSrcFileSize, limits.maxAnimationFrames], [1000, 3])
        for option in ["mrd:640", "max_src_resolution:1", "msfs:1", "max_animation_frames:2", "mafr:1"] {
            XCTAssertThrowsError(try ProcessingURLParser().parse("/x/\(option)/plain/http://h/x"), option) {
                XCTAssertEqual(ProcessingError.invalidURL($0 as! ProcessingURLError).status, 403, option)
            }
        }
        XCTAssertThrowsError(try options("msr:0"), "no source has fewer than no pixels")
        XCTAssertEqual(try options("sh:0.7").sharpenSigma, 0.7)
        XCTAssertEqual(try options("pix:6").pixelateSize, 6)
    }

    /// imgproxy's TestParseSkipProcessing and …Invalid, format_quality pairs, max_bytes, and
    /// raw, which makes the extension no format.
    func testOutputOptions() throws {
        func options(_ path: String) throws -> ProcessingOptions { try parser.parse("/x/\(path)/plain/http://h/x.jpg").options }
        XCTAssertEqual(try options("skp:jpg:png").skipProcessing, [.jpeg, .png])
        XCTAssertThrowsError(try options("skp:jpg:png:bad_format"))
        XCTAssertEqual(try options("fq:jpeg:70:webp:60").formatQuality, [.jpeg: 70, .webp: 60])
        XCTAssertThrowsError(try options("fq:jpeg:70:webp"))
        XCTAssertThrowsError(try options("fq:jpeg:101"))
        XCTAssertEqual(try options("mb:10000").maxBytes, 10_000)
        XCTAssertFalse(try options("scp:0").stripColorProfile)
        XCTAssertEqual(try parser.parse("/x/raw:1/plain/http://h/x.jpg@webp").options.format, nil)
        XCTAssertEqual(try parser.parse("/x/raw:0/plain/http://h/x.jpg@webp").options.format, .webp)
        for accepted in ["ph:1", "kcr:0", "eth:1", "dpi:72", "preserve_hdr:f", "keep_copyright:t", "enforce_thumbnail:0"] {
            XCTAssertNoThrow(try options(accepted), accepted)
        }
    }

    /// Every option that changes the bytes changes the cache key; spelling does not.
    func testNewOptionsAreInTheCanonicalKey() throws {
        func key(_ path: String) throws -> String { try parser.parse("/x/\(path)/plain/http://h/x").cacheKey }
        let plain = try key("w:100")
        var keys: Set<String> = [plain]
        for path in ["w:100/ex:1", "w:100/ex:1:no", "w:100/exar:1", "w:100/pd:1", "w:100/fl:1", "w:100/t:10", "w:100/mrd:50",
                     "w:100/sh:1", "w:100/pix:4", "w:100/z:2", "w:100/mw:200", "w:100/mh:200", "w:100/fq:jpg:50",
                     "w:100/mb:1000", "w:100/skp:png", "w:100/scp:0", "w:100/msr:2", "w:100/msfs:10", "w:100/maf:2",
                     "w:100/mafr:2", "w:100/kcr:0", "w:100/dpi:300", "w:100/-/bl:2", "w:100/eth:1", "w:100/sm:0"] {
            XCTAssertTrue(keys.insert(try key(path)).inserted, path)
        }
        XCTAssertEqual(try key("w:100/pd:5"), try key("padding:5:5:5:5/width:100"))
        XCTAssertEqual(try key("w:100/ph:1/kcr:1/dpi:0/eth:0/ct:a"), plain, "options without effect share the key")
    }

    func testWatermarkArgumentsAndKey() throws {
        func options(_ path: String) throws -> ProcessingOptions { try parser.parse("/x/\(path)/plain/http://h/x").options }
        XCTAssertEqual(try options("wm:0.5:soea:10:-5:0.25").watermark,
                       ProcessingWatermark(opacity: 0.5, gravity: Gravity(kind: .southEast, x: 10, y: -5), scale: 0.25))
        XCTAssertEqual(try options("wm:1:re:0.1").watermark, ProcessingWatermark(opacity: 1, gravity: Gravity(kind: .centre, x: 0.1), tiled: true))
        XCTAssertEqual(try options("wm:1:no/wm:0.3").watermark?.gravity.kind, .north, "empty arguments keep the earlier ones")
        XCTAssertNil(try options("wm:1:no/wm:0").watermark, "opacity 0 turns it off")
        let plain = try parser.parse("/x/w:10/plain/http://h/x").cacheKey
        var keys: Set<String> = [plain]
        for path in ["w:10/wm:1", "w:10/wm:0.5", "w:10/wm:1:re", "w:10/wm:1:ce:1", "w:10/wm:1:ce:0:0:0.5"] {
            XCTAssertTrue(keys.insert(try parser.parse("/x/\(path)/plain/http://h/x").cacheKey).inserted, path)
        }
        XCTAssertEqual(try parser.parse("/x/w:10/wm:0/plain/http://h/x").cacheKey, plain)
        for bad in ["wm:1.5", "wm:1:sm", "wm:1:fp", "wm:1:ce:0:0:0", "wm:1:xx", "wm:", "wm:1:ce:0:0:1:1:1:1"] {
            XCTAssertThrowsError(try parser.parse("/x/\(bad)/plain/http://h/x"), bad)
        }
    }
}
