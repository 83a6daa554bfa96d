@testable import WebImageServer
import WebImageTestSupport
import XCTest

/// Random and mutated paths: every one parses or fails with a ``ProcessingURLError`` (never a
/// crash, never another error type), and a parsed one keeps the invariants the processor relies on.
final class ProcessingURLFuzzTests: XCTestCase {
    private static let pieces = [
        "/", ":", "plain", "@", ".", "%", "%2F", "%3A", "%ZZ", "rs", "fill", "w", "h", "-1", "0", "1", "99999999999999999999",
        "1.5", "1e9", "nan", "g", "fp", "sm", "ce", "pr", "bg", "ff00ff", "c", "0.5", "f", "png", "jpg", "http://h/x",
        "aHR0cDovL2gveA", "==", "enc", "local:///a", "\u{0}", "\u{1B}", "é", "\u{FFFF}", "?", "#", "rot", "90", "fn", "t",
    ]

    func testRandomPathsParseOrThrowTypedErrors() throws {
        let presets = try ProcessingPresets(definitions: ["a=w:10/pr:b", "b=pr:a", "default=q:50"])
        let parser = ProcessingURLParser(presets: presets)
        var random = SeededRandom(seed: 17)
        var parsed = 0
        for _ in 0..<20_000 {
            let path = Self.randomPath(&random)
            do {
                let url = try parser.parse(path)
                parsed += 1
                XCTAssertTrue(url.signedPath.hasPrefix("/"), path)
                XCTAssertTrue(path.hasSuffix(url.signedPath) || path.contains(url.signedPath + "?"), path)
                XCTAssertTrue((0...16384).contains(url.options.width), path)
                XCTAssertTrue(url.options.dpr > 0 && url.options.dpr <= 8, path)
                XCTAssertTrue([0, 90, 180, 270].contains(url.options.rotation), path)
                XCTAssertFalse(url.cacheKey.isEmpty, path)
            } catch {
                XCTAssertFalse("\(error)".isEmpty)
            }
        }
        // The generator is useful only if some paths get through.
        XCTAssertGreaterThan(parsed, 1000)
    }

    /// Every option by every spelling, with 0 to 12 arguments drawn from the pieces (empty ones
    /// among them): each parses or throws, whatever its arity and values.
    func testEveryOptionWithAnyArgumentsParsesOrThrows() throws {
        var parser = ProcessingURLParser()
        parser.allowSecurityOptions = true
        parser.allowBypassCache = true
        var random = SeededRandom(seed: 29)
        let arguments = Self.pieces.filter { !$0.contains("/") } + ["", "", "1", "0.25", "auto", "lossless", "on", "down"]
        var parsed = 0
        for spelling in ProcessingOptionName.allCases.flatMap({ [$0.rawValue] + $0.shortNames }) {
            for count in 0...12 {
                for _ in 0..<8 {
                    let values = (0..<count).map { _ in arguments[Int(random.next() % UInt64(arguments.count))] }
                    let option = ([spelling] + values).joined(separator: ":")
                    if (try? parser.parse("/s/\(option)/plain/http://h/x")) != nil { parsed += 1 }
                }
            }
        }
        XCTAssertGreaterThan(parsed, 150, "some get through, so values are reached, not only arities")
    }

    func testRandomBytesNeverCrashTheParser() {
        let parser = ProcessingURLParser()
        var random = SeededRandom(seed: 4)
        for _ in 0..<5_000 {
            let bytes = random.bytes(Int(random.next() % 300))
            let path = "/" + String(decoding: bytes, as: UTF8.self)
            XCTAssertThrowsError(try parser.parse(path + "/w:" + path)) { XCTAssertTrue($0 is ProcessingURLError) }
            _ = try? parser.parse(path)
        }
    }

    /// A path from known pieces, so that many land near valid syntax.
    private static func randomPath(_ random: inout SeededRandom) -> String {
        var path = "/s/"
        for _ in 0..<Int(random.next() % 6) {
            var option = pieces[Int(random.next() % UInt64(pieces.count))]
            for _ in 0..<Int(random.next() % 4) {
                option += ":" + pieces[Int(random.next() % UInt64(pieces.count))]
            }
            path += option + "/"
        }
        path += random.next() % 2 == 0 ? "plain/http://h/" : ""
        for _ in 0..<Int(random.next() % 4) {
            path += pieces[Int(random.next() % UInt64(pieces.count))]
        }
        return path
    }
}
