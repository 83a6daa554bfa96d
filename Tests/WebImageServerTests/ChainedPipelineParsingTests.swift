import Foundation
import WebImage
@testable import WebImageServer
import XCTest

/// imgproxy Pro's chained pipelines as the parser reads them: `/-/` starts a pipeline, options
/// about the source and the answer belong to the whole URL, and presets' pipelines merge into
/// the URL's as imgproxy's chained-pipelines guide shows.
final class ChainedPipelineParsingTests: XCTestCase {
    func testTheSeparatorStartsAPipelineAndWholeURLOptionsStayOnTheFirst() throws {
        let url = try ProcessingURLParser().parse("/insecure/w:500/c:1000/-/t:10/f:webp/q:60/cb:7/plain/http://h/a.jpg")
        XCTAssertEqual(url.options.width, 500)
        XCTAssertNotNil(url.options.crop)
        XCTAssertNil(url.options.trim)
        XCTAssertEqual(url.options.chained.count, 1)
        XCTAssertEqual(url.options.chained[0].trim?.threshold, 10)
        XCTAssertNil(url.options.chained[0].crop)
        XCTAssertEqual(url.options.format, .webp, "the format is the URL's")
        XCTAssertEqual(url.options.quality, 60)
        XCTAssertEqual(url.options.cacheBuster, "7")
        XCTAssertNil(url.options.chained[0].format)
        let single = try ProcessingURLParser().parse("/insecure/w:500/c:1000/t:10/f:webp/q:60/cb:7/plain/http://h/a.jpg")
        XCTAssertNotEqual(url.cacheKey, single.cacheKey, "a chain is another result")
    }

    /// The example of imgproxy's guide: preset `test=width:300/height:300/-/width:200/height:200/-/width:100/height:200`
    /// and `.../width:400/-/preset:test/width:500/-/width:600/...` make
    /// `.../width:400/-/width:500/height:300/-/width:600/height:200/-/width:100/height:200/...`.
    func testPresetsPipelinesMergeIntoTheURLs() throws {
        let presets = try ProcessingPresets(definitions: ["test=width:300/height:300/-/width:200/height:200/-/width:100/height:200"])
        let url = try ProcessingURLParser(presets: presets).parse("/insecure/width:400/-/preset:test/width:500/-/width:600/plain/http://h/a.jpg")
        let pipelines = [url.options] + url.options.chained
        XCTAssertEqual(pipelines.map { [$0.width, $0.height] }, [[400, 0], [500, 300], [600, 200], [100, 200]])
        let written = try ProcessingURLParser().parse("/insecure/width:400/-/width:500/height:300/-/width:600/height:200/-/width:100/height:200/plain/http://h/a.jpg")
        XCTAssertEqual(url.cacheKey, written.cacheKey)
    }

    /// A watermark URL holding `/` cannot spell the key's other parts: its length is in the key.
    func testAWatermarkURLCannotSpellOtherOptionsInTheKey() throws {
        let parser = ProcessingURLParser()
        let spelled = try parser.parse("/insecure/wm:1/wmu:\(URLSafeBase64.encode("http://h/m.png/pj:1".utf8))/plain/http://h/a.jpg")
        let asked = try parser.parse("/insecure/wm:1/wmu:\(URLSafeBase64.encode("http://h/m.png".utf8))/jpgo:1/plain/http://h/a.jpg")
        XCTAssertNotEqual(spelled.cacheKey, asked.cacheKey)
    }

    func testPipelinesAreBoundedAndTakeNoArguments() throws {
        let nine = Array(repeating: "-/w:10", count: 9).joined(separator: "/")
        XCTAssertThrowsError(try ProcessingURLParser().parse("/insecure/w:10/\(nine)/plain/http://h/a.jpg"))
        let eight = Array(repeating: "-/w:10", count: 8).joined(separator: "/")
        XCTAssertEqual(try ProcessingURLParser().parse("/insecure/w:10/\(eight)/plain/http://h/a.jpg").options.chained.count, 8)
        XCTAssertThrowsError(try ProcessingURLParser().parse("/insecure/w:10/-:1/plain/http://h/a.jpg"))
        var allowing = ProcessingURLParser()
        allowing.allowedOptions = ["w"]
        XCTAssertNoThrow(try allowing.parse("/insecure/w:10/-/w:5/plain/http://h/a.jpg"), "the separator is always allowed")
    }
}
