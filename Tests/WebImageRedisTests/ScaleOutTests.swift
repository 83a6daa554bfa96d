import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import WebImageTestSupport
import XCTest

/// `webimage serve` instances, run as the built binary, sharing the test's `redis-server`: what
/// they fetch from the origin and make between them, how they fare when Redis dies, comes back
/// or hangs, and the `deploy/` nginx config in front of two of them.
final class ScaleOutTests: RedisTestCase {
    private var client: HTTPClient!
    private var instances: [ServeProcess] = []

    override func setUp() async throws {
        try await super.setUp()
        client = HTTPClient(eventLoopGroupProvider: .singleton)
    }

    override func tearDown() async throws {
        instances.forEach { $0.process.killAndReap() }
        instances = []
        try await client.shutdown()
        try await super.tearDown()
    }

    /// A `webimage serve` caching in a folder of its own (or in `cache`) over `redis` (the test's
    /// server by default).
    private func startInstance(redis url: String? = nil, cache: URL? = nil, _ arguments: [String] = []) throws -> ServeProcess {
        let instance = try ServeProcess([
            "--cache-dir", (cache ?? folder.appending("instance-\(instances.count)")).path, "--allow-loopback-sources",
            "--redis", url ?? "redis://127.0.0.1:\(redis.port)/0",
        ] + arguments)
        instances.append(instance)
        return instance
    }

    /// The unsigned imgproxy path of `options` applied to the origin's `source`.
    private func path(_ options: String, _ source: String) -> String {
        "/insecure/\(options)/plain/\(origin.url(source).absoluteString)"
    }

    private func get(_ url: String, accept: String? = nil) async throws -> (status: Int, headers: HTTPHeaders, body: Data) {
        var request = HTTPClientRequest(url: url)
        if let accept { request.headers.add(name: "Accept", value: accept) }
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 32 << 20)
        return (Int(response.status.code), response.headers, Data(buffer: body))
    }

    func testTwoInstancesFetchEachSourceOnceAndAnswerEachOthersResults() async throws {
        let a = try startInstance(), b = try startInstance()
        _ = try serve("testjfif_1024.jpg", at: "/photo.jpg")
        let small = path("rs:fit:200:200", "/photo.jpg") + "@webp"

        let madeByA = try await get(a.baseURL + small)
        let otherByB = try await get(b.baseURL + path("rs:fit:100:100", "/photo.jpg") + "@png")
        XCTAssertEqual([madeByA.status, otherByB.status], [200, 200])
        XCTAssertEqual(origin.requestCount("/photo.jpg"), 1, "B read the source A fetched from Redis")

        let answeredByB = try await get(b.baseURL + small)
        XCTAssertEqual(answeredByB.status, 200)
        XCTAssertEqual(answeredByB.body, madeByA.body, "the very bytes A made")
        XCTAssertEqual(answeredByB.headers.first(name: "Content-Type"), "image/webp")
        XCTAssertEqual(a.cacheSources(forPathsContaining: "/rs:fit:200:200/"), ["made"])
        XCTAssertEqual(b.cacheSources(forPathsContaining: "/rs:fit:100:100/"), ["made"])
        XCTAssertEqual(b.cacheSources(forPathsContaining: "/rs:fit:200:200/"), ["shared"], "B did not make it again")
        let again = try await get(b.baseURL + small)
        XCTAssertEqual(again.body, madeByA.body)
        XCTAssertEqual(b.cacheSources(forPathsContaining: "/rs:fit:200:200/"), ["shared", "memory"], "written back locally")

        // Decoded at full size (no shrink on load), the source is stored under its own key too.
        _ = try serve("testjfif_256.png", at: "/full.png")
        let rotated = try await get(a.baseURL + path("rot:90", "/full.png"))
        let blurred = try await get(b.baseURL + path("bl:2", "/full.png"))
        XCTAssertEqual([rotated.status, blurred.status], [200, 200])
        XCTAssertEqual(origin.requestCount("/full.png"), 1)
    }

    func testInstancesAnswerTheLastModifiedOfWhenTheResultWasMadeWhereverItComesFrom() async throws {
        let a = try startInstance(), b = try startInstance()
        _ = try serve("testjfif_256.jpg", at: "/photo.jpg")
        let url = path("w:80", "/photo.jpg")
        let madeByA = try await get(a.baseURL + url)
        let stamp = try XCTUnwrap(madeByA.headers.first(name: "Last-Modified"))
        // B reads it from Redis in a later second than A made it.
        try await Task.sleep(for: .milliseconds(1100))
        let fromShared = try await get(b.baseURL + url)
        let fromMemory = try await get(b.baseURL + url)
        XCTAssertEqual(b.cacheSources(forPathsContaining: "/w:80/"), ["shared", "memory"])
        XCTAssertEqual(fromShared.headers.first(name: "Last-Modified"), stamp, "as A made it, not when B read it")
        XCTAssertEqual(fromMemory.headers.first(name: "Last-Modified"), stamp)

        // B wrote it back to its disk with that time: started again over the same folder, it answers from disk alike.
        let bFolder = folder.appending("instance-1")
        XCTAssertTrue(b.process.wait(timeout: 10) { Self.holdsStampedEntry(bFolder.appendingPathComponent("results")) },
                      "the written-back result carries its creation time")
        b.process.killAndReap()
        let restarted = try startInstance(cache: bFolder)
        let fromDisk = try await get(restarted.baseURL + url)
        XCTAssertEqual(restarted.cacheSources(forPathsContaining: "/w:80/"), ["disk"])
        XCTAssertEqual(fromDisk.headers.first(name: "Last-Modified"), stamp)
        XCTAssertEqual(fromDisk.body, madeByA.body)
    }

    /// Whether a file in the disk cache folder `results` carries extended data (in the
    /// `user.webimage` attribute, as ext4 takes it): the creation time a result is stored with.
    private static func holdsStampedEntry(_ results: URL) -> Bool {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: results.path)) ?? []
        return names.contains { name in
            let attributes = try? FileManager.default.attributesOfItem(atPath: results.appendingPathComponent(name).path)
            let extended = attributes?[FileAttributeKey("NSFileExtendedAttributes")] as? [String: Data]
            return extended?["user.webimage"]?.isEmpty == false
        }
    }

    func testEveryRequestIsAnsweredWhileRedisIsDownAndSharingResumesWhenItIsBack() async throws {
        let a = try startInstance(), b = try startInstance()
        _ = try serve("testjfif_256.jpg", at: "/photo.jpg")
        var statuses: [Int] = []
        for width in 101...103 {
            statuses.append(try await get(a.baseURL + path("w:\(width)", "/photo.jpg")).status)
            statuses.append(try await get(b.baseURL + path("w:\(width)", "/photo.jpg")).status)
        }
        XCTAssertEqual(b.cacheSources(forPathsContaining: "/w:103/"), ["shared"])

        redis.kill()
        for width in 104...109 {
            statuses.append(try await get(a.baseURL + path("w:\(width)", "/photo.jpg")).status)
            statuses.append(try await get(b.baseURL + path("w:\(width)", "/photo.jpg")).status)
        }
        XCTAssertEqual(statuses, Array(repeating: 200, count: 18), "Redis down: every request answered")
        XCTAssertEqual(b.cacheSources(forPathsContaining: "/w:109/"), ["made"], "made again by B, from the origin")
        XCTAssertEqual(origin.requestCount("/photo.jpg"), 2, "each instance fetched the source once, into its own disk")

        try await redis.start()
        // Each client tries again once its retry interval (1 s) after the failures has passed.
        try await Task.sleep(for: .milliseconds(1200))
        let madeByA = try await get(a.baseURL + path("w:110", "/photo.jpg"))
        let answeredByB = try await get(b.baseURL + path("w:110", "/photo.jpg"))
        XCTAssertEqual(answeredByB.body, madeByA.body)
        XCTAssertEqual(b.cacheSources(forPathsContaining: "/w:110/"), ["shared"], "hits resume once Redis is back")
        for instance in [a, b] {
            XCTAssertEqual(instance.logLines(containing: "the Redis cache tier is failing").count, 1,
                           "one warning per outage: \(instance.process.errorOutput)")
            XCTAssertEqual(instance.logLines(containing: "the Redis cache tier answers again").count, 1)
        }
    }

    func testARedisThatNeverAnswersCostsRequestsNoMoreThanItsTimeouts() async throws {
        let silent = try await SilentTCPListener.start()
        let instance = try startInstance(redis: "redis://127.0.0.1:\(silent.port)/0")
        _ = try serve("testjfif_256.jpg", at: "/photo.jpg")
        let clock = ContinuousClock()
        var slowest = Duration.zero
        for width in 50...54 {
            let started = clock.now
            let response = try await get(instance.baseURL + path("w:\(width)", "/photo.jpg"))
            slowest = max(slowest, clock.now - started)
            XCTAssertEqual(response.status, 200)
        }
        try await silent.stop()
        // Each Redis operation waits at most its 100 ms timeouts, and after a timeout the client
        // fails at once for a second: a request is never held by a hung Redis (it would be held
        // until the client's 30 s). 10 s leaves a loaded machine its slow decode and encode.
        XCTAssertLessThan(slowest, .seconds(10), "bounded by the timeouts, not hung")
        XCTAssertEqual(instance.cacheSources(forPathsContaining: "/w:5"), Array(repeating: "made", count: 5))
        XCTAssertEqual(instance.logLines(containing: "the Redis cache tier is failing").count, 1)
    }

    func testNginxAnswersTheSecondIdenticalRequestFromItsCacheKeyedByTheNegotiatedFormat() async throws {
        let a = try startInstance(redis: nil, ["--auto-webp"]), b = try startInstance(redis: nil, ["--auto-webp"])
        let nginxFolder = folder.appending("nginx")
        try FileManager.default.createDirectory(at: nginxFolder, withIntermediateDirectories: true)
        let front = try await NginxFront(upstreams: [a.address, b.address], folder: nginxFolder)
        defer { front.stop() }
        _ = try serve("testjfif_1024.jpg", at: "/photo.jpg")
        let url = front.baseURL + path("rs:fit:120:120", "/photo.jpg")

        let webp = try await get(url, accept: "image/avif,image/webp,*/*")
        let webpAgain = try await get(url, accept: "image/webp,image/avif,image/apng,*/*")
        XCTAssertEqual([webp.status, webpAgain.status], [200, 200])
        XCTAssertEqual(webp.headers.first(name: "Content-Type"), "image/webp")
        XCTAssertEqual(webp.headers.first(name: "X-Cache-Status"), "MISS")
        XCTAssertEqual(webpAgain.headers.first(name: "X-Cache-Status"), "HIT", "answered by nginx's cache")
        XCTAssertEqual(webpAgain.body, webp.body)

        let jpeg = try await get(url, accept: "image/jpeg,*/*")
        let jpegAgain = try await get(url)
        XCTAssertEqual(jpeg.headers.first(name: "Content-Type"), "image/jpeg", "a client without WebP gets no WebP")
        XCTAssertEqual(jpeg.headers.first(name: "X-Cache-Status"), "MISS", "the format is part of the cache key")
        XCTAssertEqual(jpegAgain.headers.first(name: "Content-Type"), "image/jpeg")
        XCTAssertEqual(jpegAgain.headers.first(name: "X-Cache-Status"), "HIT")

        XCTAssertEqual(origin.requestCount("/photo.jpg"), 1)
        let (onA, onB) = (a.cacheSources(forPathsContaining: "/rs:fit:120:120/"), b.cacheSources(forPathsContaining: "/rs:fit:120:120/"))
        XCTAssertEqual(onA.count + onB.count, 2, "one request per format reached an instance")
        XCTAssertTrue(onA.isEmpty || onB.isEmpty, "hash $request_uri consistent: one instance per URL (\(onA), \(onB))")
    }

    func testEntriesLiveInTheirNamespacesForTheRedisTTL() async throws {
        // Three seconds: the keys are looked at before they end however loaded the machine is;
        // then the test waits for the end, not for a guess at it.
        let instance = try startInstance(redis: nil, ["--redis-ttl", "3"])
        _ = try serve("testjfif_256.jpg", at: "/photo.jpg")
        let asking = ContinuousClock.now
        let response = try await get(instance.baseURL + path("w:64", "/photo.jpg"))
        XCTAssertEqual(response.status, 200)
        let client = makeClient()
        let sources = try await client.keys(matching: "webimage:source:*")
        let results = try await client.keys(matching: "webimage:result:*")
        XCTAssertEqual(sources, ["webimage:source:" + origin.url("/photo.jpg").absoluteString])
        XCTAssertEqual(results.count, 2, "the result and the validators kept with it: \(results)")
        XCTAssertEqual(Set(results.map { $0.replacingOccurrences(of: "\u{0}validators", with: "") }).count, 1)
        var left = try await client.keys(matching: "webimage:*")
        let deadline = ContinuousClock.now + .seconds(30)
        while !left.isEmpty, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            left = try await client.keys(matching: "webimage:*")
        }
        XCTAssertEqual(left, [], "expired after --redis-ttl 3")
        XCTAssertGreaterThanOrEqual(ContinuousClock.now - asking, .seconds(3), "not before")
    }

    func testARedisURLTheClientCannotHonourStopsTheServerWithoutShowingIt() throws {
        for (url, reason) in [("redis://admin:s3cret@127.0.0.1:6379/0", "AUTH is not supported"),
                              ("rediss://127.0.0.1:6379/0", "rediss is not supported"),
                              ("redis://127.0.0.1:6379/x", "not a database number")] {
            let run = try ChildProcess.run(BuiltProducts.executable("webimage"),
                                           ["serve", "--bind", "127.0.0.1:0", "--redis", url], timeout: 30)
            XCTAssertEqual(run.status, 1, url)
            XCTAssertTrue(run.error.contains(reason), run.error)
            XCTAssertFalse(run.error.contains("s3cret"), run.error)
        }
    }
}
