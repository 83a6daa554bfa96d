import AsyncHTTPClient
import Foundation
import LoopbackHTTPServer
import NIOCore
import NIOHTTP1
import WebImageCodecs
import WebImageServer
import WebImageTestSupport
import XCTest

/// Tests of `webimage serve` on a free loopback port, fetching from a real loopback origin,
/// asked by AsyncHTTPClient: assembled in this process (``serve(_:environment:)``), or run as
/// the built binary (``start(_:environment:directory:)``) for what only a process shows.
class ServeTestCase: XCTestCase {
    static let key = "736563726574", salt = "68656C6C6F"
    var origin: LoopbackHTTPServer!
    var client: HTTPClient!
    /// The servers ``serve(_:environment:)`` started, in order.
    var servers: [InProcessServer] = []
    /// The binaries ``start(_:environment:directory:)`` started, in order.
    var processes: [ChildProcess] = []
    var folder: TemporaryFolder!

    override func setUp() async throws {
        WebImageCodecs.registerDefaults()
        origin = try await LoopbackHTTPServer.start()
        origin.route("/photo.jpg", .bytes(try Fixtures.data(Fixtures.bench("testjfif_1024.jpg")), contentType: "image/jpeg"))
        origin.route("/gone.jpg", .status(404))
        origin.route("/broken.jpg", .status(500))
        origin.route("/slow.jpg", .bytes(try Fixtures.data(Fixtures.bench("testjfif_256.jpg")), contentType: "image/jpeg",
                                         delay: .seconds(2)))
        client = HTTPClient(eventLoopGroupProvider: .singleton)
        folder = try TemporaryFolder(self)
    }

    override func tearDown() async throws {
        for server in servers { await server.stop() }
        processes.forEach { $0.killAndReap() }
        // XCTest keeps every test case until the run ends: what a stopped server held goes now.
        servers.removeAll()
        processes.removeAll()
        try await client.shutdown()
        try await origin.stop()
    }

    /// Holds `/slow.jpg` at the origin until the returned gate opens, so that "while the slow
    /// load runs" lasts as long as the test needs on a machine of any speed.
    func holdSlowSource() throws -> LoopbackHTTPGate {
        let gate = LoopbackHTTPGate()
        var held = LoopbackHTTPResponse.bytes(try Fixtures.data(Fixtures.bench("testjfif_256.jpg")), contentType: "image/jpeg")
        held.gate = gate
        origin.route("/slow.jpg", held)
        return gate
    }

    /// A URL of `base` whose making keeps a core busy for seconds once its source is in: a
    /// 2400-pixel result of `/photo.jpg`, blurred by `blur`. Only image work holds a processing
    /// slot (a download waits outside them), so a test that needs the slots taken asks this.
    func heavyURL(_ base: String, blur: Int = 8) -> String {
        base + "/insecure/rs:fit:2400:2400/el:1/bl:\(blur)/plain/" + origin.url("/photo.jpg").absoluteString
    }

    /// Waits until the server has fetched `count` sources from the network, the moment before
    /// the request that fetched the last one takes its processing slot; then a moment more, so
    /// that the slot is taken before the test goes on.
    func waitUntilSourcesFetched(_ base: String, count: Double = 1) async throws {
        let samples = try await metrics(base, once: #"webimage_cache_lookups_total{cache="source",tier="network"}"#, is: count)
        XCTAssertEqual(samples[#"webimage_cache_lookups_total{cache="source",tier="network"}"#], count)
        try await Task.sleep(for: .milliseconds(100))
    }

    /// The server's metrics once `name` reads `value`, or as they are after `timeout`.
    func metrics(_ base: String, once name: String, is value: Double, timeout: Duration = .seconds(30)) async throws
        -> [String: Double] {
        let deadline = ContinuousClock.now + timeout
        var samples = try await metrics(base)
        while samples[name] != value, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
            samples = try await metrics(base)
        }
        return samples
    }

    /// Starts `webimage serve`'s server with `arguments` and `environment` (only those
    /// variables) in this process on a free port, caching in a folder of its own, and returns
    /// its base URL.
    func serve(_ arguments: [String], environment: [String: String] = [:]) async throws -> String {
        let cache = folder.appending("cache-\(servers.count)").path
        let server = try await InProcessServer.start(["--bind", "127.0.0.1:0", "--cache-dir", cache] + arguments, environment: environment,
                                                     logFile: folder.appending("serve-\(servers.count).log"))
        servers.append(server)
        return server.baseURL
    }

    /// Fails unless the server `arguments` describe refuses to start.
    func assertServeRefused(_ arguments: [String], _ message: String = "", line: UInt = #line) async {
        do {
            _ = try await serve(arguments)
            XCTFail("started with \(arguments) \(message)", line: line)
        } catch {
            XCTAssertFalse(String(describing: error).isEmpty, line: line)
        }
    }

    /// Starts `webimage serve`, the built binary, as ``serve(_:environment:)`` starts its
    /// server (with `environment` added to this process's), for what only a process shows:
    /// signals, its exit status, its standard streams.
    func serveProcess(_ arguments: [String], environment: [String: String] = [:]) throws -> String {
        let cache = folder.appending("process-cache-\(processes.count)").path
        return try start(["serve", "--bind", "127.0.0.1:0", "--cache-dir", cache] + arguments, environment: environment)
    }

    /// Starts the binary with `arguments` and `environment` in `directory`, waits until it
    /// listens (see ``ServeProcess``), and returns its base URL.
    func start(_ arguments: [String], environment: [String: String] = [:], directory: URL? = nil) throws -> String {
        let server = try ServeProcess(launching: arguments, environment: environment, directory: directory)
        processes.append(server.process)
        return server.baseURL
    }

    func get(_ url: String, headers: [(String, String)] = [], method: HTTPMethod = .GET)
        async throws -> (status: Int, headers: HTTPHeaders, body: Data) {
        var request = HTTPClientRequest(url: url)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 32 << 20)
        return (Int(response.status.code), response.headers, Data(buffer: body))
    }

    /// The samples of `/metrics` by name and labels as written (`webimage_status_codes_total{status="200"}`).
    func metrics(_ base: String) async throws -> [String: Double] {
        let response = try await get(base + "/metrics")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.headers.first(name: "Content-Type"), "text/plain; version=0.0.4; charset=utf-8")
        var samples: [String: Double] = [:]
        for line in String(decoding: response.body, as: UTF8.self).split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
                XCTFail("not a sample: \(line)")
                continue
            }
            samples[String(line[..<space])] = value
        }
        return samples
    }

    func signed(_ path: String) throws -> String {
        try URLSigner(hexKeys: [Self.key], hexSalts: [Self.salt]).sign(path)
    }
}
