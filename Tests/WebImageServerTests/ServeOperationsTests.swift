import AsyncHTTPClient
import Foundation
import LoopbackHTTPServer
import NIOCore
import NIOPosix
import WebImage
import WebImageServer
import WebImageTestSupport
import XCTest

/// Running `webimage serve`: metrics, coalescing, conditional requests, animation limits, the
/// argument-free mode and shutdown, against the built binary and a loopback origin.
final class ServeOperationsTests: ServeTestCase {
    func testMetricsCountRequestsTiersAndTimesInPrometheusText() async throws {
        let base = try await serve(["--allow-loopback-sources"])
        let source = origin.url("/photo.jpg").absoluteString
        let made = try await get(base + "/insecure/w:100/plain/\(source)")
        XCTAssertEqual(made.status, 200)
        let again = try await get(base + "/insecure/w:100/plain/\(source)")
        XCTAssertEqual(again.body, made.body)
        let gone = try await get(base + "/insecure/w:100/plain/\(origin.url("/gone.jpg").absoluteString)")
        XCTAssertEqual(gone.status, 404)

        let samples = try await metrics(base)
        XCTAssertEqual(samples[#"webimage_status_codes_total{status="200"}"#], 2, "\(samples)")
        XCTAssertEqual(samples[#"webimage_status_codes_total{status="404"}"#], 1)
        XCTAssertEqual(samples["webimage_requests_total"], 3, "every image request, as imgproxy's requests_total")
        XCTAssertEqual(samples["webimage_request_duration_seconds_count"], 3)
        XCTAssertEqual(samples[#"webimage_cache_lookups_total{cache="result",tier="made"}"#], 1)
        XCTAssertEqual(samples[#"webimage_cache_lookups_total{cache="result",tier="memory"}"#], 1)
        XCTAssertEqual(samples[#"webimage_cache_lookups_total{cache="source",tier="network"}"#], 1)
        XCTAssertEqual(samples["webimage_processing_duration_seconds_count"], 1)
        XCTAssertEqual(samples["webimage_download_duration_seconds_count"], 1)
        XCTAssertGreaterThan(try XCTUnwrap(samples["webimage_download_duration_seconds_sum"]), 0)
        XCTAssertEqual(samples[#"webimage_download_duration_seconds_bucket{le="+Inf"}"#], 1)
        XCTAssertEqual(samples["webimage_source_bytes_total"], Double(try Fixtures.data(Fixtures.bench("testjfif_1024.jpg")).count))
        XCTAssertEqual(samples["webimage_requests_in_progress"], 0)
        XCTAssertEqual(samples["webimage_queue_length"], 0)

        // One log line a request, saying where the result and its source came from.
        let log = try XCTUnwrap(servers.last).errorOutput.split(separator: "\n").filter { $0.contains("path=/w:100/") }
        XCTAssertEqual(log.count, 3, "\(log)")
        XCTAssertTrue(log[0].contains("cache=made") && log[0].contains("source=network") && log[0].contains("status=200"), "\(log[0])")
        XCTAssertTrue(log[1].contains("cache=memory") && log[1].contains("source=-"), "\(log[1])")
        XCTAssertTrue(log[2].contains("status=404") && log[2].contains("ms="), "\(log[2])")
    }

    /// imgproxy's `IMGPROXY_NETWORK=unix` with a path in `IMGPROXY_BIND`: the server answers on
    /// the socket (a socket a killed run left there is replaced), and the network and the address
    /// must agree.
    func testAUnixSocketIsListenedOnWhenTheNetworkIsUnix() async throws {
        let socket = FileManager.default.temporaryDirectory.appendingPathComponent("wi-\(UUID().uuidString.prefix(8)).sock").path
        defer { unlink(socket) }
        let arguments = ["serve", "--cache-dir", folder.appending("socket-cache").path, "--allow-loopback-sources"]
        let environment = ["IMGPROXY_NETWORK": "unix", "IMGPROXY_BIND": socket]
        let base = try start(arguments, environment: environment)
        XCTAssertEqual(base, "http+unix://" + socket.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
        let health = try await get(base + "/health")
        XCTAssertEqual(health.status, 200)
        let image = try await get(base + "/insecure/w:40/plain/" + origin.url("/photo.jpg").absoluteString)
        XCTAssertEqual(image.status, 200)
        XCTAssertEqual(try ImageCoders.shared.decode(image.body).pixelWidth, 40)
        processes.last?.killAndReap()
        let left = try FileManager.default.attributesOfItem(atPath: socket)[.type] as? FileAttributeType
        XCTAssertEqual(left, .typeSocket, "a killed server leaves its socket")
        let restarted = try start(arguments, environment: environment)
        let again = try await get(restarted + "/health")
        XCTAssertEqual(again.status, 200, "the left socket is replaced")

        for (environment, says) in [(["IMGPROXY_BIND": socket], "is a socket path; it needs --network unix"),
                                    (["IMGPROXY_NETWORK": "unix"], "is unix, and --bind names no socket path"),
                                    (["IMGPROXY_NETWORK": "tcp4", "IMGPROXY_BIND": "[::1]:0"], "is tcp4, and --bind is an IPv6 address")] {
            XCTAssertThrowsError(try ImageServer.Configuration(environment: environment)) { error in
                XCTAssertTrue("\(error)".hasSuffix(says), "\(error)")
            }
        }
        XCTAssertEqual(try ImageServer.Configuration(environment: ["IMGPROXY_NETWORK": "tcp6", "IMGPROXY_BIND": ":8080"]).listening.host, "::")
    }

    func testTheQueueLengthIsAGauge() async throws {
        let base = try await serve(["--allow-loopback-sources", "--concurrency", "1", "--timeout", "120"])
        let client = try XCTUnwrap(self.client)
        // The heavy request holds the only slot for seconds; a second, different request waits for it.
        let heavyURL = heavyURL(base)
        let waitingURL = base + "/insecure/w:20/plain/\(origin.url("/photo.jpg").absoluteString)"
        let heavy = Task { try await client.execute(HTTPClientRequest(url: heavyURL), timeout: .seconds(120)).status.code }
        try await waitUntilSourcesFetched(base)
        let waiting = Task { try await client.execute(HTTPClientRequest(url: waitingURL), timeout: .seconds(120)).status.code }
        let samples = try await metrics(base, once: "webimage_queue_length", is: 1)
        XCTAssertEqual(samples["webimage_queue_length"], 1)
        XCTAssertEqual(samples["webimage_requests_in_progress"], 2)
        let statuses = [try await heavy.value, try await waiting.value]
        XCTAssertEqual(statuses, [200, 200])
        let after = try await metrics(base)
        XCTAssertEqual(after["webimage_queue_length"], 0)
        XCTAssertEqual(after["webimage_requests_in_progress"], 0)
    }

    func testAHundredIdenticalRequestsFetchOnceAndProcessOnce() async throws {
        // The origin holds its answer until all hundred requests are in the server, so that some
        // join the making however slowly the machine sends them.
        let gate = LoopbackHTTPGate()
        var held = LoopbackHTTPResponse.bytes(try Fixtures.data(Fixtures.bench("testjfif_1024.jpg")), contentType: "image/jpeg")
        held.gate = gate
        origin.route("/once.jpg", held)
        let base = try await serve(["--allow-loopback-sources"])
        // A client of its own, with a connection per request, so that all hundred reach the server together.
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(30), concurrentHTTP1ConnectionsPerHostSoftLimit: 100)
        let crowd = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let url = base + "/insecure/rs:fit:300:300/plain/\(origin.url("/once.jpg").absoluteString)@webp"
        let bodies = try await withThrowingTaskGroup(of: (UInt, Data).self) { group in
            for _ in 0..<100 {
                group.addTask {
                    let response = try await crowd.execute(HTTPClientRequest(url: url), timeout: .seconds(60))
                    return (response.status.code, Data(buffer: try await response.body.collect(upTo: 1 << 20)))
                }
            }
            let deadline = ContinuousClock.now + .seconds(30)
            while try await metrics(base)["webimage_requests_in_progress"] != 100, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            gate.open()
            return try await group.reduce(into: []) { $0.append($1) }
        }
        try await crowd.shutdown()
        XCTAssertEqual(bodies.count, 100)
        XCTAssertEqual(Set(bodies.map(\.0)), [200])
        XCTAssertEqual(Set(bodies.map(\.1)).count, 1, "every client got the same bytes")
        XCTAssertEqual(origin.requestCount("/once.jpg"), 1, "one origin fetch")

        let samples = try await metrics(base)
        XCTAssertEqual(samples["webimage_processing_duration_seconds_count"], 1, "one processing")
        XCTAssertEqual(samples[#"webimage_cache_lookups_total{cache="result",tier="made"}"#], 1)
        let shared = ["coalesced", "memory"].compactMap { samples[#"webimage_cache_lookups_total{cache="result",tier="\#($0)"}"#] }
        XCTAssertEqual(shared.reduce(0, +), 99, "\(samples)")
        XCTAssertGreaterThan(samples[#"webimage_cache_lookups_total{cache="result",tier="coalesced"}"#] ?? 0, 0,
                             "requests arriving while the origin held its answer joined the making")
        XCTAssertEqual(samples[#"webimage_status_codes_total{status="200"}"#], 100)
    }

    func testLastModifiedIsWhenTheResultWasMadeAndAnswersIfModifiedSince() async throws {
        let cache = folder.appending("kept").path
        let arguments = ["serve", "--bind", "127.0.0.1:0", "--cache-dir", cache, "--allow-loopback-sources"]
        let before = Date().timeIntervalSince1970.rounded(.down)
        let base = try start(arguments)
        let path = "/insecure/w:50/plain/\(origin.url("/photo.jpg").absoluteString)"
        let first = try await get(base + path)
        let after = Date().timeIntervalSince1970
        let stamp = try XCTUnwrap(first.headers.first(name: "Last-Modified"))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let made = try XCTUnwrap(formatter.date(from: stamp), stamp).timeIntervalSince1970
        XCTAssertTrue((before...after).contains(made), "\(stamp) is not between \(before) and \(after)")

        let unchanged = try await get(base + path, headers: [("If-Modified-Since", stamp)])
        XCTAssertEqual(unchanged.status, 304)
        XCTAssertTrue(unchanged.body.isEmpty)
        XCTAssertEqual(unchanged.headers.first(name: "Last-Modified"), stamp)
        let later = formatter.string(from: Date(timeIntervalSince1970: made + 3600))
        let stillUnchanged = try await get(base + path, headers: [("If-Modified-Since", later)])
        XCTAssertEqual(stillUnchanged.status, 304)
        let older = formatter.string(from: Date(timeIntervalSince1970: made - 1))
        let changed = try await get(base + path, headers: [("If-Modified-Since", older)])
        XCTAssertEqual(changed.status, 200)
        XCTAssertEqual(changed.body, first.body)
        // An ETag that does not match wins over a date that would.
        let otherTag = try await get(base + path, headers: [("If-None-Match", "\"other\""), ("If-Modified-Since", stamp)])
        XCTAssertEqual(otherTag.status, 200)
        let garbage = try await get(base + path, headers: [("If-Modified-Since", "yesterday, at noon")])
        XCTAssertEqual(garbage.status, 200)

        // A new process reads the result from the disk cache with the time it was made.
        try XCTUnwrap(processes.last).send(SIGTERM)
        XCTAssertEqual(processes.last?.waitForExit(timeout: 30), 0)
        try await Task.sleep(for: .milliseconds(1100))
        let restarted = try start(arguments)
        let fromDisk = try await get(restarted + path)
        XCTAssertEqual(fromDisk.status, 200)
        XCTAssertEqual(fromDisk.headers.first(name: "Last-Modified"), stamp)
        let tag = try XCTUnwrap(first.headers.first(name: "ETag"))
        XCTAssertEqual(fromDisk.headers.first(name: "ETag"), tag, "the tag is kept with the disk copy")
        let revalidated = try await get(restarted + path, headers: [("If-None-Match", tag)])
        XCTAssertEqual(revalidated.status, 304)
        XCTAssertEqual(origin.requestCount("/photo.jpg"), 1)
    }

    func testMaxAnimationFramesRefusesLongerAnimationsAndOneMakesThemStill() async throws {
        let gif = try Fixtures.data(Fixtures.image("gif/sd_TestImage.gif"))
        XCTAssertEqual(try ImageCoders.shared.decode(gif).frames.count, 5)
        origin.route("/five.gif", .bytes(gif, contentType: "image/gif"))
        let source = origin.url("/five.gif").absoluteString

        let animated = try await get(try await serve(["--allow-loopback-sources"]) + "/insecure/w:25/plain/\(source)")
        XCTAssertEqual(animated.status, 200)
        XCTAssertEqual(try ImageCoders.shared.decode(animated.body).frames.count, 5, "the default keeps a short animation")

        let limited = try await serve(["--allow-loopback-sources", "--max-animation-frames", "4"])
        let refused = try await get(limited + "/insecure/w:25/plain/\(source)")
        XCTAssertEqual(refused.status, 422)
        XCTAssertEqual(String(decoding: refused.body, as: UTF8.self),
                       "the source image cannot be processed: too many frames: 5 exceeds the limit of 4\n")
        let still = try await get(limited + "/insecure/w:25/plain/\(source)@jpg")
        XCTAssertEqual(still.status, 200, "a still output decodes the first frame only")

        let flattening = try start(["serve", "--bind", "127.0.0.1:0", "--cache-dir", folder.appending("one").path,
                                    "--allow-loopback-sources"], environment: ["IMGPROXY_MAX_ANIMATION_FRAMES": "1"])
        let flat = try await get(flattening + "/insecure/w:25/plain/\(source)")
        XCTAssertEqual(flat.status, 200)
        let image = try ImageCoders.shared.decode(flat.body)
        XCTAssertEqual(image.format, .gif)
        XCTAssertEqual(image.frames.count, 1, "1 frame: animations become still, as imgproxy's default")
    }

    /// A folder holding one image (and a file that is not one), and its cache folder.
    private func photoFolder() throws -> URL {
        let photos = folder.appending("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Fixtures.bench("testjfif_1024.jpg"), to: photos.appendingPathComponent("cat.jpg"))
        try Data("not an image".utf8).write(to: photos.appendingPathComponent("notes.txt"))
        return photos
    }

    /// The example URL the server printed, fetched as curl would: a 300-pixel WebP of the folder's image.
    private func fetchExample(of server: ChildProcess) async throws {
        let prefix = "webimage serve: example: "
        XCTAssertTrue(server.wait(timeout: 10) { server.outputLines.contains { $0.hasPrefix(prefix) } }, server.output)
        let example = String(try XCTUnwrap(server.outputLines.first { $0.hasPrefix(prefix) }).dropFirst(prefix.count))
        XCTAssertTrue(example.hasSuffix("/insecure/rs:fit:300:300/plain/local:///cat.jpg@webp"), example)
        let curl = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/curl"),
                                        ["-sS", "-o", folder.appending("example.webp").path, "-w", "%{http_code}", example])
        XCTAssertEqual(curl.output, "200", curl.error)
        let image = try ImageCoders.shared.decode(try Data(contentsOf: folder.appending("example.webp")))
        XCTAssertEqual([image.pixelWidth, image.pixelHeight, image.format == .webp ? 1 : 0], [300, 225, 1])
    }

    func testWithoutArgumentsItServesTheCurrentFolderUnsignedAndPrintsAWorkingExample() async throws {
        let photos = try photoFolder()
        // No argument at all; only the port comes from the environment, so that a busy 8080 does not matter.
        _ = try start(["serve"], environment: ["IMGPROXY_BIND": "127.0.0.1:0", "XDG_CACHE_HOME": folder.appending("xdg").path],
                      directory: photos)
        try await fetchExample(of: try XCTUnwrap(processes.last))
    }

    func testWithoutArgumentsOrEnvironmentItListensOn8080() async throws {
        guard Self.isFree(port: 8080) else { throw MachineGuard.notPermitted("port 8080 is in use on this machine") }
        let base = try start(["serve"], environment: ["XDG_CACHE_HOME": folder.appending("xdg").path], directory: try photoFolder())
        XCTAssertEqual(base, "http://127.0.0.1:8080")
        try await fetchExample(of: try XCTUnwrap(processes.last))
    }

    /// Whether nothing listens on `port` of 127.0.0.1 now.
    private static func isFree(port: Int) -> Bool {
        guard let channel = try? ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: port).wait()
        else { return false }
        try? channel.close().wait()
        return true
    }

    func testSIGTERMLetsARequestInFlightFinishThenExitsZero() async throws {
        let base = try serveProcess(["--allow-loopback-sources"])
        let client = try XCTUnwrap(self.client)
        let url = base + "/insecure/w:10/plain/\(origin.url("/slow.jpg").absoluteString)"
        let inFlight = Task {
            let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
            return (response.status.code, try await response.body.collect(upTo: 1 << 20).readableBytes)
        }
        let arrived = await origin.wait(timeout: .seconds(10)) { $0.requestCount("/slow.jpg") == 1 }
        XCTAssertTrue(arrived)
        let server = try XCTUnwrap(processes.last)
        server.send(SIGTERM)
        let (status, bytes) = try await inFlight.value
        XCTAssertEqual(status, 200, "the request under way when SIGTERM came was answered")
        XCTAssertGreaterThan(bytes, 0)
        XCTAssertEqual(server.waitForExit(timeout: 30), 0, server.errorOutput)
    }

    func testTheGracefulStopTimeoutCutsARequestThatTakesLonger() async throws {
        origin.route("/slower.jpg", .bytes(try Fixtures.data(Fixtures.bench("testjfif_256.jpg")), contentType: "image/jpeg",
                                           delay: .seconds(8)))
        let base = try serveProcess(["--allow-loopback-sources"], environment: ["IMGPROXY_GRACEFUL_STOP_TIMEOUT": "0.5"])
        let client = try XCTUnwrap(self.client)
        let url = base + "/insecure/w:10/plain/\(origin.url("/slower.jpg").absoluteString)"
        let inFlight = Task { try? await client.execute(HTTPClientRequest(url: url), timeout: .seconds(30)).status.code }
        let arrived = await origin.wait(timeout: .seconds(10)) { $0.requestCount("/slower.jpg") == 1 }
        XCTAssertTrue(arrived)
        let server = try XCTUnwrap(processes.last)
        let signalled = ContinuousClock.now
        server.send(SIGTERM)
        let status = server.waitForExit(timeout: 30)
        let took = signalled.duration(to: .now)
        XCTAssertLessThan(took, .seconds(5), "stopped after the graceful stop timeout, not after the 8 s source")
        XCTAssertEqual(status, 0, server.errorOutput)
        let answered = await inFlight.value
        XCTAssertNotEqual(answered, 200, "the request still under way was cut")
    }

    /// imgproxy's `IMGPROXY_SO_REUSEPORT`: two processes listen on one port, the kernel spreads
    /// connections over both (each fetches with its own User-Agent), one stopping leaves the
    /// other answering; a third without the option cannot bind the port and says so.
    func testSoReusePortLetsTwoServersShareAPortAndWithoutItTheBindFails() async throws {
        let photo = try Fixtures.data(Fixtures.bench("testjfif_256.jpg"))
        for index in 0..<24 { origin.route("/p\(index).jpg", .bytes(photo, contentType: "image/jpeg")) }
        let first = try serveProcess(["--allow-loopback-sources", "--so-reuseport", "--user-agent", "first"])
        let port = try XCTUnwrap(URLComponents(string: first)?.port)
        let second = try start(["serve", "--bind", "127.0.0.1:\(port)", "--cache-dir", folder.appending("second-cache").path,
                                "--allow-loopback-sources", "--user-agent", "second"], environment: ["IMGPROXY_SO_REUSEPORT": "true"])
        XCTAssertEqual(second, first)
        for index in 0..<24 {
            let connection = try RawHTTPConnection(port: port)
            try connection.send("GET /insecure/w:10/plain/\(origin.url("/p\(index).jpg").absoluteString) HTTP/1.1\r\n"
                                + "Host: 127.0.0.1\r\nConnection: close\r\n\r\n")
            XCTAssertTrue(String(decoding: connection.receive(), as: UTF8.self).hasPrefix("HTTP/1.1 200"), "request \(index)")
        }
        XCTAssertEqual(Set(origin.requests.compactMap { $0[header: "User-Agent"] }), ["first", "second"],
                       "the kernel spread 24 connections over both servers")

        let third = try WebImageCLI.run(["serve", "--bind", "127.0.0.1:\(port)", "--cache-dir", folder.appending("third-cache").path])
        XCTAssertEqual(third.status, 1, third.error)
        XCTAssertTrue(third.error.contains("127.0.0.1:\(port)") && third.error.contains("in use"), third.error)

        let server = try XCTUnwrap(processes.first)
        server.send(SIGTERM)
        XCTAssertEqual(server.waitForExit(timeout: 30), 0, server.errorOutput)
        let health = try RawHTTPConnection(port: port)
        try health.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        XCTAssertTrue(String(decoding: health.receive(), as: UTF8.self).hasPrefix("HTTP/1.1 200"), "the second server answers alone")
    }

    func testSIGINTStopsTheServerWithStatusZero() async throws {
        let base = try serveProcess([])
        let health = try await get(base + "/health")
        XCTAssertEqual(health.status, 200)
        let server = try XCTUnwrap(processes.last)
        server.send(SIGINT)
        XCTAssertEqual(server.waitForExit(timeout: 30), 0, server.errorOutput)
    }

    func testLogLinesWaitInMemoryAndAreAllWrittenOnSIGTERM() async throws {
        let base = try serveProcess(["--log-interval", "60"])
        for _ in 0..<3 {
            let missing = try await get(base + "/insecure/w:10/plain/local:///missing.jpg")
            XCTAssertEqual(missing.status, 404)
        }
        let server = try XCTUnwrap(processes.last)
        let logged = { server.errorOutput.split(separator: "\n").filter { $0.contains("path=/w:10/") } }
        XCTAssertEqual(logged().count, 0, "written before a minute or the exit")
        server.send(SIGTERM)
        XCTAssertEqual(server.waitForExit(timeout: 30), 0, server.errorOutput)
        XCTAssertEqual(logged().count, 3, server.errorOutput)
    }

    /// `--log-level warn` (imgproxy's `IMGPROXY_LOG_LEVEL`) writes no request lines; `info`
    /// writes them; a level imgproxy does not name stops the server before it starts.
    func testTheLogLevelWarnWritesNoRequestLines() async throws {
        for (arguments, environment, lines) in [(["--log-level", "warn"], [:], 0), ([], ["IMGPROXY_LOG_LEVEL": "info"], 2),
                                                ([], ["IMGPROXY_LOG_LEVEL": "ERROR"], 0)] {
            let base = try serveProcess(arguments + ["--log-interval", "0"], environment: environment)
            for _ in 0..<2 {
                let missing = try await get(base + "/insecure/w:11/plain/local:///missing.jpg")
                XCTAssertEqual(missing.status, 404)
            }
            let server = try XCTUnwrap(processes.last)
            server.send(SIGTERM)
            XCTAssertEqual(server.waitForExit(timeout: 30), 0, server.errorOutput)
            XCTAssertEqual(server.errorOutput.split(separator: "\n").filter { $0.contains("path=/w:11/") }.count, lines,
                           "\(arguments) \(environment): \(server.errorOutput)")
        }
        XCTAssertThrowsError(try ServerConfiguration(environment: ["IMGPROXY_LOG_LEVEL": "verbose"])) { error in
            XCTAssertTrue("\(error)".contains("IMGPROXY_LOG_LEVEL"), "\(error)")
        }
    }

    func testLogLinesAreWrittenWithinATenthOfASecondByDefault() async throws {
        // An empty variable is unset: the default interval.
        let base = try serveProcess([], environment: ["WEBIMAGE_LOG_INTERVAL": ""])
        let missing = try await get(base + "/insecure/w:10/plain/local:///missing.jpg")
        XCTAssertEqual(missing.status, 404)
        let server = try XCTUnwrap(processes.last)
        let written = server.wait(timeout: 10) { server.errorOutput.split(separator: "\n").contains { $0.contains("path=/w:10/") } }
        XCTAssertTrue(written, server.errorOutput)
    }

    func testSourceAddressesAreCheckedWhereTheServerConnectsAndOnEveryRedirect() async throws {
        // A name, not an address: refused for what it resolves to, before any connection.
        let strict = try await serve([])
        let byName = try await get(strict + "/insecure/w:10/plain/http://localhost:\(origin.port)/photo.jpg")
        XCTAssertEqual(byName.status, 404, "refused as imgproxy refuses a source address: not found")
        XCTAssertEqual(String(decoding: byName.body, as: UTF8.self), "not allowed: the source resolves to a loopback address\n")
        XCTAssertEqual(origin.requestCount("/photo.jpg"), 0)

        origin.route("/metadata.jpg", LoopbackHTTPResponse(status: 302, headers: [("Location", "http://169.254.169.254/latest/meta-data")]))
        origin.route("/moved.jpg", LoopbackHTTPResponse(status: 301, headers: [("Location", "/photo.jpg")]))
        let loopback = try await serve(["--allow-loopback-sources"])
        let allowedName = try await get(loopback + "/insecure/w:10/plain/http://localhost:\(origin.port)/photo.jpg")
        XCTAssertEqual(allowedName.status, 200, "localhost connects to the checked IPv4 address the origin listens on")
        let inwards = try await get(loopback + "/insecure/w:10/plain/\(origin.url("/metadata.jpg").absoluteString)")
        XCTAssertEqual(inwards.status, 404, "a redirect to the link-local metadata address is refused")
        XCTAssertEqual(String(decoding: inwards.body, as: UTF8.self), "not allowed: the source resolves to a link-local address\n")
        let moved = try await get(loopback + "/insecure/w:10/plain/\(origin.url("/moved.jpg").absoluteString)")
        XCTAssertEqual(moved.status, 200, "a redirect to an allowed address is followed")
        XCTAssertEqual(origin.requestCount("/photo.jpg"), 2)

        let noRedirects = try await serve(["--allow-loopback-sources", "--max-redirects", "0"])
        let notFollowed = try await get(noRedirects + "/insecure/w:11/plain/\(origin.url("/moved.jpg").absoluteString)")
        XCTAssertEqual(notFollowed.status, 502)
        XCTAssertEqual(origin.requestCount("/photo.jpg"), 2)
    }
}
