import Foundation
import LoopbackHTTPServer
import WebImageTestSupport
import XCTest

/// What `webimage get` prints around its result lines: the progress line on a terminal and the
/// summary that ends a text-mode run.
final class CommandLineDisplayTests: XCTestCase {
    private var server: LoopbackHTTPServer!

    override func setUp() async throws {
        server = try await LoopbackHTTPServer.start()
        let jpeg = try Fixtures.benchData("testjfif_256.jpg")
        for index in 0..<8 {
            server.route("/\(index).jpg", .slow(jpeg, chunkSize: 1024, delay: .milliseconds(3), contentType: "image/jpeg"))
        }
    }

    override func tearDown() async throws {
        try await server.stop()
    }

    private var urls: [String] { (0..<8).map { server.url("/\($0).jpg").absoluteString } }

    func testTextModeEndsWithASummaryEvenWhenNotATerminal() throws {
        let run = try WebImageCLI.run(["get", "--no-cache"] + urls + [server.url("/missing.jpg").absoluteString])
        XCTAssertEqual(run.status, 1)
        let lines = run.output.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 9, "one line per loaded URL, then the summary: \(run.output)")
        let last = try XCTUnwrap(lines.last)
        let size = try Fixtures.benchData("testjfif_256.jpg").count * 8
        XCTAssertTrue(last.hasPrefix("8 loaded (8 network), 1 failed, \(Self.human(size)) received in "), last)
        XCTAssertTrue(last.hasSuffix(" s"), last)
        XCTAssertFalse(run.error.contains("\u{1B}"), "no progress line when standard error is not a terminal")
        XCTAssertFalse(run.error.contains("loaded"), "standard error holds the errors only: \(run.error)")

        for quiet in [["--quiet"], ["--json"]] {
            let other = try WebImageCLI.run(["get", "--no-cache"] + quiet + urls)
            XCTAssertEqual(other.status, 0)
            XCTAssertFalse((other.output + other.error).contains("loaded"), "\(quiet): no summary")
        }
    }

    /// "1.2 MiB" as the tool prints byte counts.
    private static func human(_ bytes: Int) -> String {
        let kib = Double(bytes) / 1024
        let tenths = Int((kib >= 1024 ? kib / 1024 : kib) * 10 + 0.5)
        return "\(tenths / 10).\(tenths % 10) \(kib >= 1024 ? "MiB" : "KiB")"
    }

    func testOnATerminalEveryResultLineStartsOnAClearedLine() throws {
        // script(1) gives the tool a pseudo-terminal for both standard output and standard error.
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else {
            throw MachineGuard.notInstalled("script(1) from util-linux is needed to run the tool on a pseudo-terminal")
        }
        let command = ([BuiltProducts.executable("webimage").path, "get", "--no-cache", "-j", "3"] + urls)
            .map { "'\($0)'" }.joined(separator: " ")
        let run = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/script"), ["-q", "-e", "-c", command, "/dev/null"])
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertTrue(run.output.contains("\r\u{1B}[K["), "a progress line was drawn: \(run.output.debugDescription)")
        // Split by scalars: the terminal's "\r\n" is one Character, which a String split would not see.
        let lines = run.output.unicodeScalars.split(separator: "\n").map { line in
            String(Substring(line)).components(separatedBy: "\u{1B}[K").last!.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let results = lines.filter { $0.contains("/") && $0.contains(" ms ") }
        XCTAssertEqual(results.count, 8, run.output.debugDescription)
        for line in results {
            XCTAssertTrue(line.hasPrefix("network "), "a result line glued to something: \(line.debugDescription)")
        }
        XCTAssertTrue(lines.contains { $0.hasPrefix("8 loaded (8 network), 0 failed") }, run.output.debugDescription)
    }
}
