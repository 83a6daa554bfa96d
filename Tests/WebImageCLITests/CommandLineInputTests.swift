import Foundation
import LoopbackHTTPServer
import WebImage
import WebImageCodecs
import WebImageTestSupport
import XCTest

/// What `webimage get` takes: URLs, file paths, `-i` lists, and the arguments it refuses with
/// exit status 64.
final class CommandLineInputTests: XCTestCase {
    private var folder: URL!
    private var server: LoopbackHTTPServer!

    override func setUp() async throws {
        folder = try TemporaryFolder(self).url
        server = try await LoopbackHTTPServer.start()
        server.route("/a.jpg", .bytes(try Fixtures.benchData("testjfif_256.jpg"), contentType: "image/jpeg"))
        server.route("/b.png", .bytes(try Fixtures.benchData("testimagelarge_256.png"), contentType: "image/png"))
    }

    override func tearDown() async throws {
        try await server.stop()
    }

    func testFilePathsAndFileURLsLoadAndAreReportedAsFiles() throws {
        let path = Fixtures.image("jpeg/pil_hopper.jpg").path
        let data = "data:image/png;base64,\(try Fixtures.benchData("testjfif_256.png").base64EncodedString())"
        let json = try WebImageCLI.run(["get", "--json", "--no-cache", path, "file://\(path)", data])
        XCTAssertEqual(json.status, 0, json.error)
        XCTAssertEqual(Set(try WebImageCLI.objects(json.output).map { $0["source"] as? String }), ["file", "data"])
        XCTAssertEqual(try WebImageCLI.objects(json.output).filter { $0["source"] as? String == "file" }.count, 2)

        let text = try WebImageCLI.run(["get", "--no-cache", "-o", folder.path, path])
        XCTAssertEqual(text.status, 0, text.error)
        XCTAssertTrue(text.output.hasPrefix("file "), text.output)
        XCTAssertEqual(try Data(contentsOf: folder.appendingPathComponent("pil_hopper.jpg")), try Fixtures.imageData("jpeg/pil_hopper.jpg"))
    }

    func testBadURLsAreUsageErrors() throws {
        for (url, why) in [("http://", "http:// is not a valid URL: http:// has no host"),
                           ("http://127.0.0.1:99999/x.jpg",
                            "http://127.0.0.1:99999/x.jpg is not a valid URL: http://127.0.0.1:99999/x.jpg has port 99999, outside 1…65535"),
                           ("ftp://127.0.0.1/x.jpg", "ftp://127.0.0.1/x.jpg is not a valid URL: no loader handles ftp: URLs"),
                           ("https://exa mple.com/x.jpg", "https://exa mple.com/x.jpg is not a valid URL")] {
            let run = try WebImageCLI.run(["get", server.url("/a.jpg").absoluteString, url])
            XCTAssertEqual(run.status, 64, "\(url): \(run.error)")
            XCTAssertTrue(run.error.contains(why), run.error)
        }
        XCTAssertEqual(server.requests.count, 0, "nothing is loaded when an argument is bad")
        let none = try WebImageCLI.run(["get"])
        XCTAssertEqual(none.status, 64, none.error)
    }

    func testAListFileAndStandardInput() throws {
        let list = folder.appendingPathComponent("urls.txt")
        try """
            # images for the test

              \(server.url("/a.jpg").absoluteString)
            \(server.url("/b.png").absoluteString)
            #\(server.url("/skipped.png").absoluteString)
            """.write(to: list, atomically: true, encoding: .utf8)
        let fromFile = try WebImageCLI.run(["get", "--json", "--no-cache", "-i", list.path, Fixtures.image("jpeg/pil_hopper.jpg").path])
        XCTAssertEqual(fromFile.status, 0, fromFile.error)
        XCTAssertEqual(Set(try WebImageCLI.objects(fromFile.output).compactMap { $0["url"] as? String }),
                       [server.url("/a.jpg").absoluteString, server.url("/b.png").absoluteString,
                        Fixtures.image("jpeg/pil_hopper.jpg").path])
        XCTAssertEqual(server.requestCount("/skipped.png"), 0)

        let fromStdin = try WebImageCLI.run(after: "printf '%s\\n\\n' '\(server.url("/b.png").absoluteString)' |",
                                            ["get", "--json", "--no-cache", "-i", "-"])
        XCTAssertEqual(fromStdin.status, 0, fromStdin.error)
        XCTAssertEqual(try WebImageCLI.objects(fromStdin.output).map { $0["url"] as? String }, [server.url("/b.png").absoluteString])

        let missing = try WebImageCLI.run(["get", "-i", folder.appendingPathComponent("none.txt").path])
        XCTAssertEqual(missing.status, 64)
        XCTAssertTrue(missing.error.contains("none.txt: no such file or directory"), missing.error)
    }

    func testQualityTakesPercentagesAndFractions() throws {
        let url = server.url("/a.jpg").absoluteString
        func saved(_ quality: String) throws -> Data {
            let out = folder.appendingPathComponent("q\(quality)")
            let run = try WebImageCLI.run(["get", "--no-cache", "--format", "webp", "--quality", quality, "-o", out.path, url])
            XCTAssertEqual(run.status, 0, run.error)
            return try Data(contentsOf: out.appendingPathComponent("a.webp"))
        }
        let eighty = try saved("80"), fraction = try saved("0.8"), ten = try saved("10")
        XCTAssertEqual(eighty, fraction, "0.8 is read as 80")
        XCTAssertLessThan(ten.count, eighty.count, "10 is a lower quality than 80")
        for bad in ["150", "-1", "high"] {
            let run = try WebImageCLI.run(["get", "--quality", bad, url])
            XCTAssertEqual(run.status, 64, "\(bad): \(run.error)")
        }
        let help = try WebImageCLI.run(["get", "--help"])
        XCTAssertTrue(help.output.contains("0 to 100"), help.output)
    }
}
