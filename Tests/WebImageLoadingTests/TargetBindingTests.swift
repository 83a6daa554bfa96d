import Foundation
import LoopbackHTTPServer
import WebImage
import WebImageTestSupport
import XCTest

/// The target binding against a loopback server: last URL wins, placeholders, options, hooks.
final class TargetBindingTests: LoadingTestCase {
    /// A target that records everything it is asked to show.
    final class RecordingTarget: WebImageTarget {
        let webImageState = WebImageTargetState()
        let shown = Recorder<Int?>()
        let pixels = Recorder<PixelBuffer>()

        /// Records the width of what is shown (nil for nothing), so that images tell apart, and
        /// the pixels.
        func setImage(_ image: Image?) {
            shown.append(image?.pixelWidth)
            if let image { pixels.append(image.pixels) }
        }

        var last: Int?? { shown.all.last }
    }

    /// Records the indicator calls in order.
    final class RecordingIndicator: ImageIndicator {
        let calls = Recorder<String>()
        func startAnimating() { calls.append("start") }
        func stopAnimating() { calls.append("stop") }
        func updateProgress(_ fraction: Double) { calls.append("progress") }
    }

    private var manager: ImageManager!
    private var folder: TemporaryFolder!

    override func setUp() async throws {
        try await super.setUp()
        folder = try TemporaryFolder(self)
        manager = try makeManager(makeDownloader(), folder: folder.url)
    }

    private var context: ImageContext {
        var context = ImageContext()
        context.manager = manager
        return context
    }

    /// A PNG `width` pixels wide, so that the width names the image.
    private func png(width: Int) throws -> Data {
        try Self.coders.encode(Image(pixels: PixelBuffer(width: width, height: 4, fill: RGBA(r: 200, g: 10, b: 10))),
                               as: .png, options: ImageEncodeOptions())
    }

    /// Waits for `completed` to be called with `finished` for `count` loads in total.
    private func completions() -> (Recorder<Result<ImageResult, WebImageError>>, ImageLoadCompletion) {
        let recorder = Recorder<Result<ImageResult, WebImageError>>()
        return (recorder, { result, finished in if finished { recorder.append(result) } })
    }

    func testTheLastURLWinsAndTheReplacedLoadReportsCancelled() async throws {
        server.route("/a.png", .slow(try png(width: 300), chunkSize: 64, delay: .milliseconds(30)))
        server.route("/b.png", .bytes(try png(width: 20)))
        let target = RecordingTarget()
        let (a, aDone) = completions(), (b, bDone) = completions()
        target.webImage.setImage(with: server.url("/a.png"), context: context, completed: aDone)
        _ = await server.wait { $0.requestCount("/a.png") == 1 }
        target.webImage.setImage(with: server.url("/b.png"), context: context, completed: bDone)
        let done = await a.wait(for: 1)
        let doneB = await b.wait(for: 1)
        XCTAssertTrue(done && doneB)
        guard case .failure(.cancelled) = a.all.first else { return XCTFail("A: \(a.all)") }
        guard case .success(let loaded) = b.all.first else { return XCTFail("B: \(b.all)") }
        XCTAssertEqual(loaded.image.pixelWidth, 20)
        // The target's queue shows an image before it completes the load: no wait needed.
        XCTAssertEqual(target.last, 20, "the target shows B")
        XCTAssertFalse(target.shown.all.contains(300), "A's image never reached the target")
        XCTAssertEqual(target.webImage.currentURL, server.url("/b.png"))
        let aborted = await server.wait { $0.abortedCount("/a.png") == 1 }
        XCTAssertTrue(aborted, "A's download was cancelled on the wire")
        XCTAssertEqual(a.count, 1)
        XCTAssertEqual(b.count, 1)
    }

    func testRandomSetAndCancelSequencesEndOnEachTargetsLastRequest() async throws {
        let widths = Array(10..<30)
        var random = SeededRandom(seed: 2026)
        for width in widths {
            var response = LoopbackHTTPResponse.bytes(try png(width: width))
            response.headDelay = .milliseconds(Int.random(in: 0...15, using: &random))
            server.route("/\(width).png", response)
        }
        let targets = (0..<50).map { _ in RecordingTarget() }
        var lastWidth: [Int?] = Array(repeating: nil, count: targets.count)
        var requested: [Set<Int>] = Array(repeating: [], count: targets.count)
        let finished = Recorder<Int>()
        var loads = 0
        for step in 0..<1000 {
            let index = Int.random(in: 0..<targets.count, using: &random)
            if Bool.random(using: &random) || lastWidth[index] == nil {
                let width = widths.randomElement(using: &random)!
                let options: WebImageOptions = Bool.random(using: &random) ? .fromLoaderOnly : []
                targets[index].webImage.setImage(with: server.url("/\(width).png"), options: options, context: context,
                                                    completed: { _, done in if done { finished.append(step) } })
                lastWidth[index] = width
                requested[index].insert(width)
                loads += 1
            } else {
                targets[index].webImage.cancelCurrentLoad()
                lastWidth[index] = -1
            }
            if step % 50 == 0 { try await Task.sleep(for: .milliseconds(Int.random(in: 0...10, using: &random))) }
        }
        let all = await finished.wait(for: loads, timeout: .seconds(30))
        XCTAssertTrue(all, "\(finished.count) of \(loads) loads completed")
        try await Task.sleep(for: .milliseconds(300))
        XCTAssertEqual(finished.count, loads, "every completion exactly once")
        XCTAssertEqual(Set(finished.all).count, loads, "no load completed twice")
        for (index, target) in targets.enumerated() {
            guard let expected = lastWidth[index] else { continue }
            if expected == -1 {
                let last = target.last ?? nil
                XCTAssertTrue(last == nil || requested[index].contains(last!),
                              "target \(index) after cancel shows its placeholder or an image it asked for, not \(String(describing: last))")
            } else {
                XCTAssertEqual(target.last, expected, "target \(index) shows its last request")
            }
        }
    }

    func testPlaceholderNowOrAfterAFailureWithDelayPlaceholder() async throws {
        let placeholder = Image(pixels: PixelBuffer(width: 7, height: 7))
        server.route("/ok.png", .bytes(try png(width: 40), delay: .milliseconds(50)))
        server.route("/missing.png", .status(404))
        let now = RecordingTarget(), delayed = RecordingTarget()
        let (nowDone, nowCompletion) = completions(), (delayedDone, delayedCompletion) = completions()
        now.webImage.setImage(with: server.url("/ok.png"), placeholder: placeholder, context: context, completed: nowCompletion)
        delayed.webImage.setImage(with: server.url("/missing.png"), placeholder: placeholder, options: .delayPlaceholder,
                                  context: context, completed: delayedCompletion)
        _ = await nowDone.wait(for: 1)
        _ = await delayedDone.wait(for: 1)
        XCTAssertEqual(now.shown.all, [7, 40], "placeholder at once, then the image")
        XCTAssertEqual(delayed.shown.all, [7], "the placeholder only once the load failed")
        guard case .failure(.badStatusCode(404)) = delayedDone.all.first else { return XCTFail("\(delayedDone.all)") }
    }

    /// Called on the target's queue, as SDWebImage is on the main thread: the placeholder is on
    /// the target when the call returns, and so is a memory hit.
    func testOnTheTargetsQueueThePlaceholderAndAMemoryHitAreSetBeforeTheCallReturns() async throws {
        server.route("/ok.png", .bytes(try png(width: 40)))
        let url = server.url("/ok.png")
        _ = try await manager.image(for: url)
        let placeholder = Image(pixels: PixelBuffer(width: 7, height: 7))
        let target = RecordingTarget()
        let context = context
        let shownWhenReturned = target.webImageState.queue.sync { () -> [Int?] in
            target.webImage.setImage(with: url, placeholder: placeholder, context: context)
            return target.shown.all
        }
        XCTAssertEqual(shownWhenReturned, [7, 40], "the placeholder, then the memory hit, before setImage returned")
        let missing = RecordingTarget()
        server.route("/slow.png", .bytes(try png(width: 50), delay: .milliseconds(200)))
        let placeholderOnly = missing.webImageState.queue.sync { () -> [Int?] in
            missing.webImage.setImage(with: server.url("/slow.png"), placeholder: placeholder, context: context)
            return missing.shown.all
        }
        XCTAssertEqual(placeholderOnly, [7], "a miss: the placeholder at once")
    }

    /// SDWebImage's `testUIViewCancelWithDelayPlaceholderShouldCallbackOnceBeforeSecond`: a
    /// `delayPlaceholder` load cancelled on the target's queue shows its placeholder once, there
    /// and then, before the next load under the same key shows its own and its image.
    func testACancelledDelayedPlaceholderShowsOnceBeforeTheNextLoad() async throws {
        server.route("/slow.png", .bytes(try png(width: 50), delay: .milliseconds(200)))
        let url = server.url("/slow.png")
        let first = Image(pixels: PixelBuffer(width: 7, height: 7)), second = Image(pixels: PixelBuffer(width: 9, height: 9))
        let target = RecordingTarget()
        var keyed = context
        keyed.operationKey = "shared"
        let context = keyed
        let (done, completion) = completions()
        let (firstDone, firstCompletion) = completions()
        let shownBeforeSecond = target.webImageState.queue.sync { () -> [Int?] in
            let operation = target.webImage.setImage(with: url, placeholder: first, options: .delayPlaceholder, context: context,
                                                     completed: firstCompletion)
            operation?.cancel()
            let shown = target.shown.all
            target.webImage.setImage(with: url, placeholder: second, context: context, completed: completion)
            return shown
        }
        XCTAssertEqual(shownBeforeSecond, [7], "the cancelled load's placeholder, once, before the second load")
        _ = await done.wait(for: 1)
        _ = await firstDone.wait(for: 1)
        XCTAssertEqual(target.shown.all, [7, 9, 50])
        guard case .failure(.cancelled) = firstDone.all.first else { return XCTFail("\(firstDone.all)") }
    }

    /// With `queryDiskDataSync`, a disk hit is read on the calling thread: on the target's
    /// queue, it is on the target when setImage returns, as SDWebImage's synchronous disk query.
    func testASynchronousDiskHitIsSetBeforeTheCallReturns() async throws {
        server.route("/ok.png", .bytes(try png(width: 40)))
        let url = server.url("/ok.png")
        _ = try await manager.image(for: url, options: .waitStoreCache)
        await manager.imageCache.clear(.memory)
        let target = RecordingTarget()
        let context = context
        let (shown, result) = target.webImageState.queue.sync { () -> ([Int?], Result<ImageResult, WebImageError>?) in
            let outcome = Recorder<Result<ImageResult, WebImageError>>()
            target.webImage.setImage(with: url, options: .queryDiskDataSync, context: context,
                                     completed: { result, _ in outcome.append(result) })
            return (target.shown.all, outcome.all.first)
        }
        XCTAssertEqual(shown, [nil, 40], "the (empty) placeholder, then the disk hit")
        XCTAssertEqual(try XCTUnwrap(result).get().source, .disk)
        XCTAssertEqual(server.requestCount("/ok.png"), 1)
    }

    /// SDWebImage sets each call's placeholder once, before its load: a load replaced at once
    /// under the same key has shown its placeholder all the same.
    func testEveryCallSetsItsPlaceholderEvenWhenReplacedAtOnce() async throws {
        server.route("/a.png", .bytes(try png(width: 40), delay: .milliseconds(100)))
        server.route("/b.png", .bytes(try png(width: 50), delay: .milliseconds(100)))
        let target = RecordingTarget()
        let (done, completion) = completions()
        let first = Image(pixels: PixelBuffer(width: 7, height: 7)), second = Image(pixels: PixelBuffer(width: 8, height: 8))
        target.webImage.setImage(with: server.url("/a.png"), placeholder: first, context: context, completed: completion)
        target.webImage.setImage(with: server.url("/b.png"), placeholder: second, context: context, completed: completion)
        _ = await done.wait(for: 2)
        XCTAssertEqual(target.shown.all, [7, 8, 50])
    }

    func testAvoidAutoSetImageLeavesTheTargetToTheCompletion() async throws {
        server.route("/ok.png", .bytes(try png(width: 40)))
        let target = RecordingTarget()
        let (done, completion) = completions()
        target.webImage.setImage(with: server.url("/ok.png"), options: .avoidAutoSetImage, context: context, completed: completion)
        _ = await done.wait(for: 1)
        guard case .success(let loaded) = done.all.first else { return XCTFail("\(done.all)") }
        XCTAssertEqual(loaded.image.pixelWidth, 40)
        XCTAssertEqual(target.shown.all, [nil], "only the (empty) placeholder was set")
    }

    /// As SDWebImage's view category: the options processor sees the binding's load without the
    /// custom manager in its context and with the operation key it runs under.
    func testTheOptionsProcessorSeesTheOperationKeyAndNoManager() async throws {
        server.route("/ok.png", .bytes(try png(width: 40)))
        let seen = Recorder<(key: String?, hasManager: Bool)>()
        let processing = ImageManager(
            imageCache: ImageCache(memory: MemoryCache(), disk: try DiskCache(directory: folder.url.appendingPathComponent("processed")),
                                   coders: Self.coders),
            imageLoader: makeDownloader(),
            coders: Self.coders, optionsProcessor: { _, options, context in
                seen.append((context.operationKey, context.manager != nil))
                return (options, context)
            })
        var custom = ImageContext()
        custom.manager = processing
        for key in [nil, "avatar"] {
            var context = custom
            context.operationKey = key
            let (done, completion) = completions()
            RecordingTarget().webImage.setImage(with: server.url("/ok.png"), context: context, completed: completion)
            _ = await done.wait(for: 1)
        }
        XCTAssertEqual(seen.all.map(\.key), [String(describing: RecordingTarget.self), "avatar"])
        XCTAssertEqual(seen.all.map(\.hasManager), [false, false])
    }

    func testIndicatorAndTransitionHooks() async throws {
        server.route("/big.png", .slow(try png(width: 500), chunkSize: 500, delay: .milliseconds(5)))
        let target = RecordingTarget()
        let indicator = RecordingIndicator()
        let transitions = Recorder<Int>()
        target.webImageState.indicator = indicator
        target.webImageState.transition = ImageTransition { _, image in transitions.append(image.pixelWidth) }
        let (done, completion) = completions()
        target.webImage.setImage(with: server.url("/big.png"), context: context, completed: completion)
        _ = await done.wait(for: 1)
        let calls = indicator.calls.all
        XCTAssertEqual(calls.first, "start")
        XCTAssertEqual(calls.last, "stop")
        XCTAssertTrue(calls.contains("progress"), "\(calls)")
        XCTAssertEqual(transitions.all, [500], "a downloaded image goes through the transition")
        XCTAssertEqual(target.shown.all, [nil], "…and not through setImage")

        let (hit, hitCompletion) = completions()
        target.webImage.setImage(with: server.url("/big.png"), context: context, completed: hitCompletion)
        _ = await hit.wait(for: 1)
        XCTAssertEqual(target.last, 500, "a memory hit is set directly")
        XCTAssertEqual(transitions.count, 1)
        let (forced, forcedCompletion) = completions()
        target.webImage.setImage(with: server.url("/big.png"), options: .forceTransition, context: context,
                                 completed: forcedCompletion)
        _ = await forced.wait(for: 1)
        XCTAssertEqual(transitions.count, 2, "forceTransition runs it for cache hits too")
    }

    func testAReleasedTargetCancelsItsLoad() async throws {
        server.route("/slow.png", .slow(try png(width: 300), chunkSize: 64, delay: .milliseconds(30)))
        let (done, completion) = completions()
        weak var weakTarget: RecordingTarget?
        do {
            let target = RecordingTarget()
            weakTarget = target
            target.webImage.setImage(with: server.url("/slow.png"), context: context, completed: completion)
            _ = await server.wait { $0.requestCount("/slow.png") == 1 }
        }
        XCTAssertNil(weakTarget, "the binding does not keep the target alive")
        let aborted = await server.wait { $0.abortedCount("/slow.png") == 1 }
        XCTAssertTrue(aborted, "the download stopped with its target")
        _ = await done.wait(for: 1)
        guard case .failure(.cancelled) = done.all.first else { return XCTFail("\(done.all)") }
    }

    func testAnAnimationPlaysFrameByFrameUntilTheTargetLoadsSomethingElse() async throws {
        let gif = try Fixtures.imageData("gif/sd_TestImage.gif")
        let frames = try Self.coders.decode(gif).frames.map(\.pixels)
        server.route("/anim.gif", .bytes(gif, contentType: "image/gif"))
        server.route("/still.png", .bytes(try png(width: 20)))
        let target = RecordingTarget()
        target.webImageState.animatedImagePlayback = AnimatedImagePlayer.Configuration()
        let (done, completion) = completions()
        target.webImage.setImage(with: server.url("/anim.gif"), context: context, completed: completion)
        _ = await done.wait(for: 1)
        guard case .success(let loaded) = done.all.first else { return XCTFail("\(done.all)") }
        XCTAssertEqual(loaded.image.frames.count, 5)
        let played = await target.pixels.wait(for: 8)
        XCTAssertTrue(played, "frames keep coming: \(target.pixels.count)")
        let shown = target.pixels.all
        XCTAssertTrue(shown.allSatisfy { frames.contains($0) }, "every still shown is one of the animation's frames")
        XCTAssertEqual(Set(shown).count, Set(frames).count, "every frame is shown")

        let (stillDone, stillCompletion) = completions()
        target.webImage.setImage(with: server.url("/still.png"), context: context, completed: stillCompletion)
        _ = await stillDone.wait(for: 1)
        XCTAssertEqual(target.last, 20, "the still replaced the animation")
        let count = target.shown.count
        try await Task.sleep(for: .milliseconds(400))
        XCTAssertEqual(target.shown.count, count, "the player stopped")
    }

    /// The player decodes frames with the load's own decode options: `scaleDownLargeImages`
    /// (with the manager's limit) shrinks the played frames as it shrank the loaded image.
    func testAPlayedAnimationKeepsScaleDownLargeImages() async throws {
        let gif = try Fixtures.imageData("gif/sd_TestImage.gif")
        let original = try Self.coders.decode(gif)
        server.route("/anim.gif", .bytes(gif, contentType: "image/gif"))
        let limit = original.pixelWidth * original.pixelHeight * 4 * original.frames.count / 4
        var context = context
        context.manager = ImageManager(imageCache: ImageCache(memory: MemoryCache(), disk: try DiskCache(directory: folder.appending("small"))),
                                       imageLoader: makeDownloader(), coders: Self.coders, scaleDownLimitBytes: limit)
        let target = RecordingTarget()
        target.webImageState.animatedImagePlayback = AnimatedImagePlayer.Configuration()
        let (done, completion) = completions()
        target.webImage.setImage(with: server.url("/anim.gif"), options: .scaleDownLargeImages, context: context, completed: completion)
        _ = await done.wait(for: 1)
        guard case .success(let loaded) = done.all.first else { return XCTFail("\(done.all)") }
        XCTAssertLessThan(loaded.image.pixelWidth, original.pixelWidth, "the load scaled the animation down")
        let played = await target.pixels.wait(for: 6)
        XCTAssertTrue(played, "frames keep coming: \(target.pixels.count)")
        for frame in target.pixels.all {
            XCTAssertEqual(frame.width, loaded.image.pixelWidth)
            XCTAssertEqual(frame.height, loaded.image.pixelHeight)
        }
        target.webImage.cancelCurrentLoad()
        target.webImageState.animatedImagePlayback = nil
    }

    func testAvoidAutoCancelImageLetsTheReplacedLoadFinishWithoutShowingIt() async throws {
        server.route("/a.png", .slow(try png(width: 300), chunkSize: 64, delay: .milliseconds(20)))
        server.route("/a2.png", .slow(try png(width: 301), chunkSize: 64, delay: .milliseconds(20)))
        server.route("/b.png", .bytes(try png(width: 20)))
        let target = RecordingTarget()
        let (a, aDone) = completions(), (b, bDone) = completions()
        target.webImage.setImage(with: server.url("/a.png"), context: context, completed: aDone)
        _ = await server.wait { $0.requestCount("/a.png") == 1 }
        target.webImage.setImage(with: server.url("/b.png"), options: .avoidAutoCancelImage, context: context, completed: bDone)
        _ = await a.wait(for: 1)
        _ = await b.wait(for: 1)
        guard case .success(let kept) = a.all.first else { return XCTFail("the new load's flag lets A run on") }
        XCTAssertEqual(kept.image.pixelWidth, 300)
        XCTAssertEqual(target.last, 20, "…but the target shows B")
        XCTAssertFalse(target.shown.all.contains(300))

        let (c, cDone) = completions(), (d, dDone) = completions()
        target.webImage.setImage(with: server.url("/a2.png"), options: .avoidAutoCancelImage, context: context, completed: cDone)
        _ = await server.wait { $0.requestCount("/a2.png") == 1 }
        target.webImage.setImage(with: server.url("/b.png"), context: context, completed: dDone)
        _ = await c.wait(for: 1)
        _ = await d.wait(for: 1)
        guard case .failure(.cancelled) = c.all.first else { return XCTFail("without the flag on the new load, A is cancelled") }
    }

    func testCancellingTheCurrentLoadStopsTheIndicator() async throws {
        server.route("/slow.png", .slow(try png(width: 300), chunkSize: 64, delay: .milliseconds(30)))
        let target = RecordingTarget()
        let indicator = RecordingIndicator()
        target.webImageState.indicator = indicator
        let (done, completion) = completions()
        target.webImage.setImage(with: server.url("/slow.png"), context: context, completed: completion)
        _ = await server.wait { $0.requestCount("/slow.png") == 1 }
        target.webImage.cancelCurrentLoad()
        _ = await done.wait(for: 1)
        // Progress calls may come between start and stop: wait for the stop itself.
        let deadline = ContinuousClock.now + .seconds(5)
        while indicator.calls.all.last != "stop", ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        XCTAssertEqual(indicator.calls.all.first, "start")
        XCTAssertEqual(indicator.calls.all.last, "stop")
        try await Task.sleep(for: .milliseconds(200))
        XCTAssertEqual(indicator.calls.all.last, "stop", "nothing after the stop")
    }
}
