import Foundation
import XCTest

/// Checks that an article's table holds `expected`, row for row. On a difference it fails
/// naming the first row that differs and writes the whole expected table to a file in the
/// temporary folder (named by `name`), whose path the failure gives: the next engineer copies
/// it into the article. (A failure message holding a whole table is cut short by XCTest.)
func assertArticleTable(_ rows: [String], _ expected: [String], _ name: String, file: StaticString = #filePath, line: UInt = #line) {
    guard rows != expected else { return }
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-table-\(name).md")
    try? Data((expected.joined(separator: "\n") + "\n").utf8).write(to: path)
    let first = zip(rows, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(rows.count, expected.count)
    let has = first < rows.count ? rows[first] : "(no row)", wants = first < expected.count ? expected[first] : "(no row)"
    XCTFail("the \(name) table differs at row \(first + 1) (\(rows.count) rows, \(expected.count) expected):\n  has:   \(has)\n  wants: \(wants)\n"
        + "the whole expected table is in \(path.path)", file: file, line: line)
}
