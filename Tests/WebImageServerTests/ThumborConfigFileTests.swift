import Foundation
@testable import WebImageServer
import WebImageTestSupport
import XCTest

/// `thumbor.conf` as `--thumbor-config` reads it: Python's literals, each assignment's line,
/// and a clear error with its line for anything that is not an assignment of a literal.
final class ThumborConfigFileTests: XCTestCase {
    private func read(_ text: String) throws -> [String: PythonLiteral] {
        Dictionary(try ThumborConfigFile(text: text, path: "thumbor.conf").assignments.map { ($0.name, $0.value) },
                   uniquingKeysWith: { _, later in later })
    }

    /// The error `text` is, as `PATH:LINE reason`.
    private func failure(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        do {
            _ = try ThumborConfigFile(text: text, path: "thumbor.conf")
            XCTFail("read \(text)", file: file, line: line)
            return ""
        } catch {
            return error.description
        }
    }

    func testLiteralsAreReadAsPythonReadsThem() throws {
        let values = try read("""
            # thumbor.conf, as thumbor-config writes it and operators edit it
            QUALITY = 85
            MAX_PIXELS = 75e6   # a float
            MAX_AGE = 24 * 60 * 60
            NEGATIVE = -3
            HEX = 0x1F
            SPACED = 1_000
            RATIO = .5
            SECURITY_KEY = 'it\\'s "secret"\\n\\x41\\u00e9'
            RAW = r'^\\d+\\.example\\.com$'
            JOINED = ('one'
                      "two")
            TRIPLE = \"\"\"a
            b\"\"\"
            AUTO_WEBP = True
            RESULT_STORAGE = None
            ALLOWED_SOURCES = [
                'example.com',   # a host
                "cdn.example.com",
            ]
            EMPTY = []
            PAIR = (1, 2.5)
            ONE = (7,)
            GROUPED = (7)
            HEADERS = {'Accept': 'image/*', 1: [True]}
            A = 1; B = 2
            C = \\
                3
            """)
        XCTAssertEqual(values["QUALITY"], .integer(85))
        XCTAssertEqual(values["MAX_PIXELS"], .float(75_000_000))
        XCTAssertEqual(values["MAX_AGE"], .integer(86_400))
        XCTAssertEqual(values["NEGATIVE"], .integer(-3))
        XCTAssertEqual(values["HEX"], .integer(31))
        XCTAssertEqual(values["SPACED"], .integer(1000))
        XCTAssertEqual(values["RATIO"], .float(0.5))
        XCTAssertEqual(values["SECURITY_KEY"], .string("it's \"secret\"\nAé"))
        XCTAssertEqual(values["RAW"], .string("^\\d+\\.example\\.com$"), "a raw string keeps its backslashes")
        XCTAssertEqual(values["JOINED"], .string("onetwo"), "strings side by side are one")
        XCTAssertEqual(values["TRIPLE"], .string("a\nb"))
        XCTAssertEqual(values["AUTO_WEBP"], .boolean(true))
        XCTAssertEqual(values["RESULT_STORAGE"], PythonLiteral.none)
        XCTAssertEqual(values["ALLOWED_SOURCES"], .list([.string("example.com"), .string("cdn.example.com")]))
        XCTAssertEqual(values["EMPTY"], .list([]))
        XCTAssertEqual(values["PAIR"], .tuple([.integer(1), .float(2.5)]))
        XCTAssertEqual(values["ONE"], .tuple([.integer(7)]))
        XCTAssertEqual(values["GROUPED"], .integer(7), "parentheses without a comma are no tuple")
        XCTAssertEqual(values["HEADERS"], .dict([.init(key: .string("Accept"), value: .string("image/*")),
                                                 .init(key: .integer(1), value: .list([.boolean(true)]))]))
        XCTAssertEqual([values["A"], values["B"], values["C"]], [.integer(1), .integer(2), .integer(3)])
        let lines = try ThumborConfigFile(text: "\n\nQUALITY = 1\r\nMAX_AGE = (\n 2)\nSVG_DPI = 3\n", path: "x").assignments.map(\.line)
        XCTAssertEqual(lines, [3, 4, 6], "each assignment's first line, CRLF counted once")
        let bare = try ThumborConfigFile(text: "A = 1\rB = 2\r\r\nC = 3 # comment\rD = 4", path: "x").assignments
        XCTAssertEqual(bare.map(\.name), ["A", "B", "C", "D"], "a lone CR ends a line, as Python reads it")
        XCTAssertEqual(bare.map(\.line), [1, 2, 4, 5])
        XCTAssertEqual(try read("A = '\\777'")["A"], .string("\u{1FF}"), "an octal escape past \\377 is a character past U+00FF")
        XCTAssertEqual(try read("A = -4611686018427387904 * 2")["A"], .integer(.min))
        XCTAssertEqual(try read("A = " + String(repeating: "- ", count: 10_000) + "1")["A"], .integer(1), "signs are read without recursion")
    }

    func testCompiledPatternsNeedImportRe() throws {
        XCTAssertEqual(try read("import re\nALLOWED_SOURCES = [re.compile(r'^https://img\\.')]")["ALLOWED_SOURCES"],
                       .list([.pattern("^https://img\\.")]))
        XCTAssertEqual(failure("ALLOWED_SOURCES = [re.compile('x')]"),
                       "thumbor.conf:1 names re, which is not a literal; write the value itself")
        XCTAssertEqual(failure("import re\nA = re.compile('x', re.I)"),
                       "thumbor.conf:2 uses re other than re.compile")
    }

    func testAnythingButAnAssignmentOfALiteralIsAnErrorWithItsLine() {
        let notLiteral = "which is not a literal; write the value itself"
        let cases: [(text: String, error: String)] = [
            ("QUALITY = 80\nFILE_LOADER_ROOT_PATH = HOME", "thumbor.conf:2 names HOME, \(notLiteral)"),
            ("import os", "thumbor.conf:1 imports something other than re; only `import re` is read here"),
            ("\nLOADER = load('x')", "thumbor.conf:2 names load, \(notLiteral)"),
            ("QUALITY = 80 + 5", "thumbor.conf:1 holds an expression (+); write the value itself"),
            ("QUALITY == 80", "thumbor.conf:1 is not NAME = VALUE, the only statement read here"),
            ("if True:\n    QUALITY = 1", "thumbor.conf:1 is not NAME = VALUE, the only statement read here"),
            ("KEY = 'open\nQUALITY = 1", "thumbor.conf:1 has a string that does not end on its line"),
            ("KEY = f'{x}'", "thumbor.conf:1 names f, \(notLiteral)"),
            ("LIST = [1, 2", "thumbor.conf:1 has no , or ] after an item"),
            ("A = 1 2", "thumbor.conf:1 has \"2\" after a value, where the line should end"),
            ("A = 'x' * 2", "thumbor.conf:1 multiplies something other than numbers"),
            ("A = 9223372036854775807 * 2", "thumbor.conf:1 holds a product too large for a setting"),
            ("A = 1j", "thumbor.conf:1 has 1j, which is not a number read here"),
            ("A = '\\xZZ'", "thumbor.conf:1 has a \\x escape without 2 hex digits"),
            ("A = 9223372036854775808", "thumbor.conf:1 holds 9223372036854775808, a number too large for a setting"),
            ("A = -(-4611686018427387904 * 2)", "thumbor.conf:1 holds a number too large for a setting"),
            ("A = " + String(repeating: "[", count: 5_000), "thumbor.conf:1 nests brackets deeper than 100 levels"),
            ("A = " + String(repeating: "(", count: 101) + "1" + String(repeating: ")", count: 101), "thumbor.conf:1 nests brackets deeper than 100 levels"),
        ]
        for (text, error) in cases {
            XCTAssertEqual(failure(text), error, text)
        }
        XCTAssertTrue(failure("A = \"\"\"never\nends").hasPrefix("thumbor.conf:1 has a string that does not end"))
        XCTAssertThrowsError(try ThumborConfigFile(path: "/nonexistent/thumbor.conf")) { error in
            XCTAssertEqual("\(error)", "/nonexistent/thumbor.conf is no readable UTF-8 file")
        }
    }

    /// No input traps the reader: every prefix of a file with each construct in it ends in an
    /// assignment list or an error.
    func testEveryPrefixOfAFileIsReadOrRefused() {
        let text = "import re\nA = [1, (2,), {'k': -3.5e2}, r'\\d', '\\u00e9', re.compile('x')] # c\nB = \"\"\"t\"\"\" 'u'\nC = 2 * 3\n"
        let characters = Array(text)
        for end in 0...characters.count {
            _ = try? ThumborConfigFile(text: String(characters[..<end]), path: "p")
        }
        XCTAssertNoThrow(try ThumborConfigFile(text: text, path: "p"))
    }
}
