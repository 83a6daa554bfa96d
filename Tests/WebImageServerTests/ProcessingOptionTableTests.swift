@testable import WebImageServer
import WebImageTestSupport
import XCTest

/// The one table of imgproxy options: every spelling reads back as its option, no spelling is
/// taken twice, and the URLOptions article's table is the table, row for row.
final class ProcessingOptionTableTests: XCTestCase {
    func testEverySpellingNamesItsOptionOnce() {
        var seen: Set<String> = []
        for option in ProcessingOptionName.allCases {
            for spelling in [option.rawValue] + option.shortNames {
                XCTAssertEqual(ProcessingOptionName(spelling: Substring(spelling)), option, spelling)
                XCTAssertTrue(seen.insert(spelling).inserted, "\(spelling) names two options")
            }
        }
        XCTAssertEqual(ProcessingOptionName(spelling: "wm"), .watermark)
        XCTAssertNil(ProcessingOptionName(spelling: "op"), "imgproxy Pro's objects_position is not read yet")
    }

    /// The URLOptions article's table of imgproxy options is the one ``ProcessingOptionName`` makes: an option
    /// added, removed or changed in code without the article fails here.
    func testTheReadmeTableIsTheOptionTable() throws {
        let readme = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent(
            "Sources/WebImageServer/WebImageServer.docc/URLOptions.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let expected = ProcessingOptionName.markdownTable
        let start = try XCTUnwrap(lines.firstIndex(of: expected[0]), "URLOptions.md has no option table")
        let rows = lines[start...].prefix { $0.hasPrefix("|") }
        assertArticleTable(Array(rows), expected, "url-options")
    }
}
