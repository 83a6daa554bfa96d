import Foundation
import LoopbackHTTPServer
import WebImage
import WebImageCodecs
import WebImageTestSupport
import XCTest

/// `webimage get` and `webimage demo`, run as the built binary against a loopback server and
/// real folders.
final class CommandLineLoadingTests: XCTestCase {
    private var folder: URL!
    private var server: LoopbackHTTPServer!

    override func setUp() async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-get-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        server = try await LoopbackHTTPServer.start()
    }

    override func tearDown() async throws {
        try await server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    private func webimage(_ arguments: [String]) throws -> (status: Int32?, output: String, error: String) {
        try ChildProcess.run(BuiltProducts.executable("webimage"), arguments)
    }

    /// The JSON objects `get --json` printed, one per line.
    private func objects(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").map { line in
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    func testGetReportsWhereEachImageCameFromAndSavesIt() throws {
        server.route("/photo.jpg", .bytes(try Fixtures.benchData("testjfif_256.jpg"), contentType: "image/jpeg", etag: "\"1\""))
        server.route("/logo.png", .bytes(try Fixtures.benchData("testimagelarge_256.png"), contentType: "image/png"))
        let cache = folder.appendingPathComponent("cache").path, out = folder.appendingPathComponent("out").path
        let urls = ["/photo.jpg", "/logo.png", "/missing.png"].map { server.url($0).absoluteString }

        let cold = try webimage(["get", "--json", "--cache-dir", cache, "-o", out] + urls)
        XCTAssertEqual(cold.status, 1, "one URL failed: exit status 1")
        let first = try objects(cold.output)
        XCTAssertEqual(first.count, 3)
        let byURL = Dictionary(uniqueKeysWithValues: first.map { ($0["url"] as! String, $0) })
        XCTAssertEqual(byURL[urls[0]]?["source"] as? String, "network")
        XCTAssertEqual(byURL[urls[0]]?["width"] as? Int, 256)
        XCTAssertTrue((byURL[urls[2]]?["error"] as? String)?.contains("404") == true, "\(first)")
        let saved = try Data(contentsOf: URL(fileURLWithPath: out).appendingPathComponent("photo.jpg"))
        XCTAssertEqual(saved, try Fixtures.benchData("testjfif_256.jpg"), "the downloaded bytes, as they are")

        let warm = try webimage(["get", "--json", "--cache-dir", cache, urls[0], urls[1]])
        XCTAssertEqual(warm.status, 0)
        XCTAssertEqual(try objects(warm.output).map { $0["source"] as? String }, ["disk", "disk"],
                       "a new process finds them on disk")
        XCTAssertEqual(server.requestCount("/photo.jpg"), 1)

        let refreshed = try webimage(["get", "--json", "--refresh", "--cache-dir", cache, urls[0]])
        XCTAssertEqual(try objects(refreshed.output).first?["source"] as? String, "revalidated")
        XCTAssertEqual(server.requests.last?[header: "If-None-Match"], "\"1\"")
    }

    func testGetWithoutCacheConvertsAndResizes() throws {
        server.route("/photo.jpg", .bytes(try Fixtures.benchData("testjfif_1024.jpg"), contentType: "image/jpeg"))
        let cache = folder.appendingPathComponent("cache"), out = folder.appendingPathComponent("out")
        let url = server.url("/photo.jpg").absoluteString
        for _ in 0..<2 {
            let run = try webimage(["get", "--no-cache", "--cache-dir", cache.path, "--thumbnail", "100", "--format", "png",
                                    "-o", out.path, url])
            XCTAssertEqual(run.status, 0, run.error)
            XCTAssertTrue(run.output.hasPrefix("network"), run.output)
        }
        XCTAssertEqual(server.requestCount("/photo.jpg"), 2, "--no-cache reads no cache")
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache.path), "--no-cache writes no cache")
        let png = try ImageCoders(WebImageCodecs.defaultCoders).decode(try Data(contentsOf: out.appendingPathComponent("photo.png")))
        XCTAssertEqual(png.format, .png)
        XCTAssertEqual(max(png.pixelWidth, png.pixelHeight), 100)

        let resized = try webimage(["get", "--cache-dir", cache.path, "--resize", "50x30", "--mode", "fill", "--format", "webp",
                                    "-o", out.path, url])
        XCTAssertEqual(resized.status, 0, resized.error)
        let webp = try ImageCoders(WebImageCodecs.defaultCoders).decode(try Data(contentsOf: out.appendingPathComponent("photo.webp")))
        XCTAssertEqual([webp.pixelWidth, webp.pixelHeight], [50, 30])
    }

    func testGetRejectsBadArguments() throws {
        let run = try webimage(["get", "-j", "0", "http://127.0.0.1/x.png"])
        XCTAssertEqual(run.status, 64, "usage errors exit with 64")
        XCTAssertTrue(run.error.contains("-j"), run.error)
    }

    func testDemoLoadsColdWarmAndFromDiskAndWritesAContactSheet() throws {
        let out = folder.appendingPathComponent("demo")
        let run = try webimage(["demo", "-o", out.path, "--count", "8", "--thumbnail", "64", "--callers", "20"])
        XCTAssertEqual(run.status, 0, run.error)
        let rows = run.output.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        func row(_ phase: String) -> [String]? { rows.last { $0.first == phase } }
        XCTAssertEqual(row("cold")?[2...3], ["network", "8"], run.output)
        XCTAssertEqual(row("warm")?[2...3], ["memory", "8"], run.output)
        XCTAssertEqual(row("disk")?[2...3], ["disk", "8"], run.output)
        /// The requests column: before the downloaded size and its unit.
        func requests(_ phase: String) -> String? { row(phase).map { $0[$0.count - 3] } }
        XCTAssertEqual(requests("cold"), "8", run.output)
        XCTAssertEqual(requests("warm"), "0", "no requests when warm")
        XCTAssertEqual(requests("disk"), "0", "no requests from disk")
        XCTAssertEqual(requests("coalesce"), "1", "20 callers, one request")
        let sheet = try ImageCoders(WebImageCodecs.defaultCoders).decode(try Data(contentsOf: out.appendingPathComponent("contact-sheet.png")))
        XCTAssertEqual(sheet.pixelWidth, 6 * (64 + 12) + 12)
        XCTAssertEqual(sheet.pixelHeight, 2 * (64 + 12) + 12)
        let thumbnails = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("thumbnails").path)
        XCTAssertEqual(thumbnails.count, 8)
    }
}
