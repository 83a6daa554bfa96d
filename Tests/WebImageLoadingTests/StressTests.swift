import Foundation
import LoopbackHTTPServer
import WebImage
import WebImageTestSupport
import XCTest

/// Many loads from many tasks against a server that delays, fails, cuts connections, stalls and
/// sends garbage, with random cancellation; then nothing may be left running or over its limits.
///
/// CI runs 3,000 loads over 300 URLs (a few seconds). `WEBIMAGE_STRESS_LOADS=20000` runs the long mode (over
/// 2,000 URLs); `WEBIMAGE_STRESS_SEED` replays a run's draws (interleavings still vary).
final class StressTests: LoadingTestCase {
    /// One load: which URL, through which API, with which options, cancelled after how long.
    private struct Load {
        var url: Int
        var usesCallback: Bool
        var options: WebImageOptions
        var cancelAfter: Duration?
    }

    /// A fixture the URLs serve, with its type and decoded size.
    private struct Served {
        var path: String
        var contentType: String
        var size: PixelSize
    }

    private static let served = [
        Served(path: "jpeg/pil_hopper.jpg", contentType: "image/jpeg", size: PixelSize(128)),
        Served(path: "png/pngsuite_basn6a08.png", contentType: "image/png", size: PixelSize(32)),
        Served(path: "gif/pil_hopper.gif", contentType: "image/gif", size: PixelSize(128)),
        Served(path: "webp/pil_hopper.webp", contentType: "image/webp", size: PixelSize(128)),
        Served(path: "jpeg/sd_TestImage.jpg", contentType: "image/jpeg", size: PixelSize(width: 80, height: 60)),
    ]

    private static let environment = ProcessInfo.processInfo.environment
    private static let loadCount = environment["WEBIMAGE_STRESS_LOADS"].flatMap { Int($0) } ?? 3_000
    private static let seed = environment["WEBIMAGE_STRESS_SEED"].flatMap { UInt64($0) } ?? 0x5EED_0009
    /// How much RSS may grow during the run: 400 MB, or `WEBIMAGE_STRESS_MAX_RSS_GROWTH_MB`
    /// (AddressSanitizer's quarantine alone holds up to 256 MB of freed memory).
    private static let maxResidentGrowth = (environment["WEBIMAGE_STRESS_MAX_RSS_GROWTH_MB"].flatMap { Int($0) } ?? 400) << 20
    /// Tasks issuing loads at once.
    private static let workers = 48
    private static let memoryCostLimit = 1 << 20
    /// A stalled download fails after this long without data.
    private static let downloadTimeout: TimeInterval = 0.3

    func testManyLoadsFromAHostileServerLeaveNothingRunningAndStayWithinLimits() async throws {
        let loads = Self.loadCount, urlCount = max(1, loads / 10)
        var random = SeededRandom(seed: Self.seed)
        let routes = HostileRoutes(seed: random.next())
        let bodies = try Self.served.map { try Fixtures.imageData($0.path) }
        let urls = (0..<urlCount).map { index in
            let served = Self.served[index % Self.served.count]
            let path = "/stress/\(index).\(served.path.split(separator: ".").last!)"
            routes.route(path, on: server, image: bodies[index % Self.served.count], contentType: served.contentType)
            return server.url(path)
        }
        let sizes = (0..<urlCount).map { Self.served[$0 % Self.served.count].size }
        let plan = (0..<loads).map { _ in Self.drawLoad(urlCount: urlCount, using: &random) }

        let downloader = makeDownloader {
            $0.downloadTimeout = Self.downloadTimeout
            $0.maxConcurrentDownloads = 8
        }
        let memory = MemoryCache<String, Image>(costLimit: Self.memoryCostLimit)
        let disk = try DiskCache(directory: try TemporaryFolder(self).url, configuration: .init(autoTrimInterval: 0))
        let log = LogRecorder()
        let manager = ImageManager(imageCache: ImageCache(memory: memory, disk: disk, coders: Self.coders),
                                   imageLoader: downloader, coders: Self.coders, logger: log.logger)
        let outcomes = StressOutcomes(loads: loads)

        let residentBefore = ProcessMemory.residentBytes
        let start = ContinuousClock.now
        let timeLimit = Duration.seconds(30) + .milliseconds(10 * loads)
        let sampler = Task {
            var peak = 0
            while !Task.isCancelled {
                peak = max(peak, ProcessMemory.residentBytes)
                try? await Task.sleep(for: .milliseconds(20))
            }
            return peak
        }
        let work = Task {
            await StressTests.run(plan, urls: urls, sizes: sizes, manager: manager, outcomes: outcomes)
        }
        let watchdog = Task {
            try await Task.sleep(for: timeLimit)
            work.cancel()
            outcomes.releaseAll()
        }
        await work.value
        watchdog.cancel()
        let duration = ContinuousClock.now - start
        let idle = await server.wait { $0.requestsInFlight == 0 }
        sampler.cancel()
        let peakResident = max(await sampler.value, ProcessMemory.residentBytes)

        let kinds = outcomes.kinds
        let cancelsAsked = plan.filter { $0.cancelAfter != nil }.count
        let report = """
            stress: \(loads) loads over \(urlCount) URLs from \(Self.workers) tasks in \(duration) \
            (limit \(timeLimit)), seed \(Self.seed)
              callback loads: \(plan.filter(\.usesCallback).count), async loads: \(plan.filter { !$0.usesCallback }.count), \
            cancellations asked: \(cancelsAsked)
              outcomes: \(kinds.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
              server: \(server.requests.count) requests, at most \(server.maxConcurrentRequests) at once; served \
            \(routes.served.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", "))
              memory cache: \(memory.count) images, cost \(memory.totalCost) of \(Self.memoryCostLimit); disk: \(disk.count) files
              RSS: \(Self.megabytes(residentBefore)) before, \(Self.megabytes(peakResident)) peak, \
            \(Self.megabytes(ProcessMemory.residentBytes)) after; process high-water mark \(Self.megabytes(ProcessMemory.peakResidentBytes))
            """
        print(report)

        XCTAssertLessThan(duration, timeLimit, "the run did not finish in time")
        XCTAssertEqual(outcomes.loadsNotCompletedOnce, [], "loads whose completion did not run exactly once (load: count)")
        XCTAssertEqual(outcomes.extraCallbacks, 0, "callbacks that were not asked for")
        XCTAssertEqual(log.messages(at: .warning), [], "disk stores that failed")
        XCTAssertEqual(outcomes.wrongImages, [], "successful loads with another image than their URL serves")
        XCTAssertTrue(idle, "the server still has \(server.requestsInFlight) responses open")
        XCTAssertEqual(downloader.currentDownloadCount, 0, "downloads left running")
        XCTAssertLessThanOrEqual(memory.totalCost, Self.memoryCostLimit, "memory cache over its cost limit")
        XCTAssertGreaterThan(residentBefore, 0, "VmRSS was read from /proc/self/status")
        XCTAssertLessThan(peakResident - residentBefore, Self.maxResidentGrowth,
                          "RSS grew by more than \(Self.megabytes(Self.maxResidentGrowth))")
        for kind in ["image from network", "cancelled", "status 404", "status 500", "network", "timed out", "bad image data"] {
            XCTAssertGreaterThan(kinds[kind] ?? 0, 0, "no load ended as \(kind): the run did not exercise it")
        }
    }

    /// Runs the loads of `plan` from ``workers`` tasks, each taking every ``workers``-th load.
    private static func run(_ plan: [Load], urls: [URL], sizes: [PixelSize], manager: ImageManager,
                            outcomes: StressOutcomes) async {
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<workers {
                group.addTask {
                    for index in stride(from: worker, to: plan.count, by: workers) {
                        guard !Task.isCancelled else { return }
                        let load = plan[index]
                        if load.usesCallback {
                            await runWithCallback(load, index: index, url: urls[load.url], expected: sizes[load.url],
                                                  manager: manager, outcomes: outcomes)
                        } else {
                            await runAsync(load, index: index, url: urls[load.url], expected: sizes[load.url],
                                           manager: manager, outcomes: outcomes)
                        }
                    }
                }
            }
        }
    }

    /// A load drawn from `random`: half callback-style; a fifth cancelled within 30 ms; a
    /// third skip the cache and a third retry failed URLs, so that downloads keep happening.
    private static func drawLoad(urlCount: Int, using random: inout SeededRandom) -> Load {
        var options: WebImageOptions = []
        if Int.random(in: 0..<3, using: &random) == 0 { options.insert(.fromLoaderOnly) }
        if Int.random(in: 0..<3, using: &random) == 0 { options.insert(.retryFailed) }
        let cancels = Int.random(in: 0..<5, using: &random) == 0
        return Load(url: Int.random(in: 0..<urlCount, using: &random), usesCallback: Bool.random(using: &random),
                    options: options, cancelAfter: cancels ? .milliseconds(Int.random(in: 0...30, using: &random)) : nil)
    }

    /// Runs `load` with `loadImage` and `WebImageOperation.cancel()`; returns once it completed.
    private static func runWithCallback(_ load: Load, index: Int, url: URL, expected: PixelSize,
                                        manager: ImageManager, outcomes: StressOutcomes) async {
        let operation = manager.loadImage(with: url, options: load.options) { result, finished in
            if finished {
                outcomes.complete(index, with: result, expected: expected)
            } else {
                outcomes.recordExtraCallback()
            }
        }
        if let delay = load.cancelAfter {
            try? await Task.sleep(for: delay)
            operation.cancel()
        }
        await outcomes.waitForCompletion(of: index)
    }

    /// Runs `load` with `image(for:)` in a child task, cancelling that task after the delay.
    private static func runAsync(_ load: Load, index: Int, url: URL, expected: PixelSize,
                                 manager: ImageManager, outcomes: StressOutcomes) async {
        await withTaskGroup(of: Result<ImageResult, WebImageError>?.self) { group in
            group.addTask {
                do throws(WebImageError) {
                    return .success(try await manager.image(for: url, options: load.options))
                } catch {
                    return .failure(error)
                }
            }
            if let delay = load.cancelAfter {
                group.addTask {
                    try? await Task.sleep(for: delay)
                    return nil
                }
            }
            for await finished in group {
                if let finished { outcomes.complete(index, with: finished, expected: expected) }
                group.cancelAll()
            }
        }
    }

    private static func megabytes(_ bytes: Int) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_048_576)
    }
}
