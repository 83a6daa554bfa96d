import Foundation
import Locking
import WebImage
import WebImageCodecs
import WebImageTestSupport
import XCTest

/// The ``AnimatedImagePlayer`` on a ``TestClock``: time passes only when the player sleeps
/// (or the test says so), so every frame's index, loop and time is checked exactly, without
/// any real waiting.
final class AnimatedImagePlayerTests: XCTestCase {
    private let coders = ImageCoders(WebImageCodecs.defaultCoders)

    private func animation(_ path: String) throws -> AnimatedImage {
        try AnimatedImage(data: Fixtures.imageData(path), coders: coders)
    }

    /// Starts `player` and takes frames from its sequence until `count` (or the end), the
    /// consumer spending `lag` of clock time on each; then pauses it, before the iterator
    /// goes (without iterators it would run on, free, on the test clock).
    private func collect(_ player: AnimatedImagePlayer, clock: TestClock, count: Int = .max,
                         lag: Duration = .zero) async -> [AnimatedImagePlayer.Frame] {
        var frames: [AnimatedImagePlayer.Frame] = []
        var iterator = player.frames.makeAsyncIterator()
        player.play()
        while frames.count < count, let frame = await iterator.next() {
            frames.append(frame)
            clock.advance(by: lag)
        }
        player.pause()
        return frames
    }

    private func seconds(_ frames: [AnimatedImagePlayer.Frame]) -> [Double] {
        frames.map { Double($0.time.components.seconds) + Double($0.time.components.attoseconds) / 1e18 }
    }

    private func assertTimes(_ frames: [AnimatedImagePlayer.Frame], _ expected: [Double], _ message: String,
                             file: StaticString = #filePath, line: UInt = #line) {
        let times = seconds(frames)
        XCTAssertEqual(times.count, expected.count, message, file: file, line: line)
        for (time, want) in zip(times, expected) where abs(time - want) > 1e-9 {
            return XCTFail("\(message): times \(times) != \(expected)", file: file, line: line)
        }
    }

    // MARK: - Order and timing

    func testEveryModePlaysItsOrderOnTime() async throws {
        // 5 frames of 120 ms, looping forever.
        let image = try animation("gif/sd_TestImage.gif")
        let expected: [AnimatedImagePlayer.PlaybackMode: (indices: [Int], loops: [Int])] = [
            .normal: ([0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1], [0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2]),
            .reversed: ([4, 3, 2, 1, 0, 4, 3, 2, 1, 0, 4, 3], [0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2]),
            .bounce: ([0, 1, 2, 3, 4, 3, 2, 1, 0, 1, 2, 3], [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1]),
            .reversedBounce: ([4, 3, 2, 1, 0, 1, 2, 3, 4, 3, 2, 1], [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1]),
        ]
        for mode in AnimatedImagePlayer.PlaybackMode.allCases {
            let clock = TestClock()
            let player = AnimatedImagePlayer(image: image, configuration: .init(playbackMode: mode), clock: clock)
            let frames = await collect(player, clock: clock, count: 12)
            XCTAssertEqual(frames.map(\.index), expected[mode]?.indices, "\(mode)")
            XCTAssertEqual(frames.map(\.loop), expected[mode]?.loops, "\(mode)")
            assertTimes(frames, (0..<12).map { Double($0) * 0.12 }, "\(mode)")
            XCTAssertEqual(player.currentFrameIndex, frames.last?.index)
            XCTAssertEqual(player.currentLoop, frames.last?.loop)
        }
    }

    func testPlaybackRateScalesEveryFrameDuration() async throws {
        // Frame durations 100, 500, 1000, 500, 1000 ms (the first has no delay stated: 100 ms).
        let image = try animation("png/apng_delay.png")
        XCTAssertEqual(image.durations, [0.1, 0.5, 1.0, 0.5, 1.0])
        for rate in [1.0, 2.0, 0.5] {
            let clock = TestClock()
            let player = AnimatedImagePlayer(image: image, configuration: .init(playbackRate: rate), clock: clock)
            let frames = await collect(player, clock: clock, count: 7)
            XCTAssertEqual(frames.map(\.index), [0, 1, 2, 3, 4, 0, 1])
            let starts = [0, 0.1, 0.6, 1.6, 2.1, 3.1, 3.2].map { $0 / rate }
            assertTimes(frames, starts, "rate \(rate)")
        }
    }

    func testFramesCarryTheDecodedPixelsOfEachFormat() async throws {
        for path in ["gif/pil_dispose_prev.gif", "png/sd_TestImageAnimated.apng", "webp/sd_TestImageAnimated.webp"] {
            let data = try Fixtures.imageData(path)
            let eager = try coders.decode(data)
            let clock = TestClock()
            let player = AnimatedImagePlayer(image: try AnimatedImage(data: data, coders: coders), clock: clock)
            let frames = await collect(player, clock: clock, count: eager.frames.count + 1)
            XCTAssertEqual(frames.map(\.index), Array(eager.frames.indices) + [0], path)
            for frame in frames {
                XCTAssertEqual(frame.pixels, eager.frames[frame.index].pixels, "\(path) frame \(frame.index)")
            }
            let starts = [0] + eager.durations.reduce(into: [Double]()) { $0.append(($0.last ?? 0) + $1) }
            assertTimes(frames, starts, path)
        }
    }

    // MARK: - Loop count

    func testAGIFWithoutALoopBlockPlaysOnce() async throws {
        let image = try animation("gif/sd_TestLoopCount.gif")
        XCTAssertEqual(image.loopCount, 1)
        let clock = TestClock()
        let player = AnimatedImagePlayer(image: image, clock: clock)
        let finished = Mutex<[Duration]>([])
        player.onFinish = { failure in
            XCTAssertNil(failure)
            finished.withLock { $0.append(clock.now.offset) }
        }
        let frames = await collect(player, clock: clock)
        XCTAssertEqual(frames.map(\.index), [0, 1], "one loop, then the sequence ends")
        assertTimes(frames, [0, 0.5], "500 ms frames")
        XCTAssertEqual(finished.withLock { $0 }, [.seconds(1)], "finished once, when the last frame's time was up")
        XCTAssertTrue(player.isFinished)
        XCTAssertFalse(player.isPlaying)
        XCTAssertEqual(player.currentFrameIndex, 1, "stays on the last frame")

        // Playing again after the end starts over.
        let again = await collect(player, clock: clock)
        XCTAssertEqual(again.map(\.index), [1, 0, 1], "the frame showing, then the whole loop again")
    }

    func testLoopCountIsHonouredInEveryMode() async throws {
        // Three frames, played once.
        let image = try animation("png/apng_dispose_op_none.png")
        XCTAssertEqual(image.loopCount, 1)
        let expected: [AnimatedImagePlayer.PlaybackMode: [Int]] = [
            .normal: [0, 1, 2], .reversed: [2, 1, 0],
            .bounce: [0, 1, 2, 1, 0], .reversedBounce: [2, 1, 0, 1, 2],
        ]
        for mode in AnimatedImagePlayer.PlaybackMode.allCases {
            let clock = TestClock()
            let player = AnimatedImagePlayer(image: image, configuration: .init(playbackMode: mode), clock: clock)
            let frames = await collect(player, clock: clock)
            XCTAssertEqual(frames.map(\.index), expected[mode], "\(mode): a there-and-back is one loop")
            XCTAssertEqual(Set(frames.map(\.loop)), [0], "\(mode)")
            XCTAssertEqual(clock.now.offset, .milliseconds(100 * frames.count), "\(mode): ends after the last frame's time")
        }
    }

    func testAForeverLoopKeepsPlaying() async throws {
        let clock = TestClock()
        let player = AnimatedImagePlayer(image: try animation("png/apng_num_plays.png"), clock: clock)
        let frames = await collect(player, clock: clock, count: 31)
        XCTAssertEqual(frames.map(\.loop).last, 10)
        XCTAssertFalse(player.isFinished)
    }

    // MARK: - Slow consumers, dropped frames, rate 0, pause and seek

    func testALaggingConsumerSeesEveryFrame() async throws {
        let clock = TestClock()
        let player = AnimatedImagePlayer(image: try animation("gif/sd_TestImage.gif"), clock: clock)
        let frames = await collect(player, clock: clock, count: 10, lag: .milliseconds(500))
        XCTAssertEqual(frames.map(\.index), [0, 1, 2, 3, 4, 0, 1, 2, 3, 4])
        assertTimes(frames, (0..<10).map { Double($0) * 0.5 }, "each frame as soon as the consumer asks")
    }

    func testDroppingFramesKeepsTime() async throws {
        let clock = TestClock()
        let player = AnimatedImagePlayer(image: try animation("gif/sd_TestImage.gif"),
                                         configuration: .init(dropsFramesToKeepTime: true), clock: clock)
        let frames = await collect(player, clock: clock, count: 10, lag: .milliseconds(250))
        assertTimes(frames, (0..<10).map { Double($0) * 0.25 }, "the consumer's pace")
        // Each frame is the one whose 120 ms slot holds the time it was shown.
        let slots = seconds(frames).map { Int(($0 / 0.12).rounded(.down)) }
        XCTAssertEqual(frames.map(\.index), slots.map { $0 % 5 })
        XCTAssertEqual(frames.map(\.loop), slots.map { $0 / 5 })
        XCTAssertEqual(frames.map(\.index), [0, 2, 4, 1, 3, 0, 2, 4, 1, 3])
    }

    func testARateOfZeroStopsAndAPositiveRateResumes() async throws {
        let clock = TestClock()
        let player = AnimatedImagePlayer(image: try animation("gif/sd_TestImage.gif"), clock: clock)
        let seen = Mutex<[Int]>([])
        // Without iterators the player runs free on the test clock; the handler stops it on frame 2.
        await withCheckedContinuation { (stopped: CheckedContinuation<Void, Never>) in
            player.onFrame = { frame in
                seen.withLock { $0.append(frame.index) }
                if frame.index == 2 {
                    player.playbackRate = 0
                    stopped.resume()
                }
            }
            player.play()
        }
        player.onFrame = nil
        XCTAssertEqual(seen.withLock { $0 }, [0, 1, 2])
        XCTAssertEqual(clock.now.offset, .milliseconds(240))
        clock.advance(by: .seconds(10))
        XCTAssertEqual(player.currentFrameIndex, 2, "stopped where it was")
        XCTAssertTrue(player.isPlaying)

        var iterator = player.frames.makeAsyncIterator()
        let showing = await iterator.next()
        XCTAssertEqual(showing?.index, 2, "an iterator starts with the frame showing")
        player.playbackRate = 1
        let next = await iterator.next()
        XCTAssertEqual(next?.index, 3, "no frame was played while stopped")
        XCTAssertEqual(next?.time, .milliseconds(10_360), "frame 2 got the rest of its time after the stop")
    }

    func testPauseResumeAndSeek() async throws {
        let clock = TestClock()
        let player = AnimatedImagePlayer(image: try animation("gif/sd_TestImage.gif"), clock: clock)
        var iterator = player.frames.makeAsyncIterator()
        player.play()
        let first = await iterator.next()
        XCTAssertEqual(first?.index, 0)
        player.pause()
        XCTAssertFalse(player.isPlaying)
        clock.advance(by: .seconds(5))
        player.play()
        let second = await iterator.next()
        XCTAssertEqual(second?.index, 1)
        XCTAssertEqual(second?.time, .milliseconds(5_120), "paused time does not count")

        try player.seek(toFrame: 4, loop: 2)
        XCTAssertEqual(player.currentFrameIndex, 4)
        XCTAssertEqual(player.currentLoop, 2)
        let sought = await iterator.next()
        XCTAssertEqual(sought?.index, 4)
        XCTAssertEqual(sought?.loop, 2)
        XCTAssertEqual(sought?.time, .milliseconds(5_120), "shown at once")
        let after = await iterator.next()
        XCTAssertEqual(after?.index, 0)
        XCTAssertEqual(after?.loop, 3)
        XCTAssertEqual(after?.time, .milliseconds(5_240))

        XCTAssertThrowsError(try player.seek(toFrame: 5)) {
            XCTAssertEqual($0 as? AnimatedImageError, .frameOutOfRange(index: 5, frameCount: 5))
        }
        let once = AnimatedImagePlayer(image: try animation("gif/sd_TestLoopCount.gif"), clock: clock)
        XCTAssertThrowsError(try once.seek(toFrame: 0, loop: 1)) {
            XCTAssertEqual($0 as? AnimatedImageError, .loopOutOfRange(loop: 1, loopCount: 1))
        }
    }

    func testDroppingThePlayerEndsItsFrames() async throws {
        let clock = TestClock()
        var player: AnimatedImagePlayer? = AnimatedImagePlayer(image: try animation("gif/sd_TestImage.gif"), clock: clock)
        var iterator = player!.frames.makeAsyncIterator()
        player!.play()
        let first = await iterator.next()
        XCTAssertEqual(first?.index, 0)
        player = nil
        let end = await iterator.next()
        XCTAssertNil(end)
    }

    // MARK: - The bounded frame buffer

    func testATwoFrameBufferPlaysEveryFrameOfA44FrameGIF() async throws {
        let data = try Fixtures.imageData("gif/sd_1@2x.gif")
        let eager = try GIFCoder().decode(data, options: ImageDecodeOptions())
        XCTAssertEqual(eager.frames.count, 44)
        let image = try AnimatedImage(data: data, coder: GIFCoder())
        let clock = TestClock()
        let player = AnimatedImagePlayer(image: image, configuration: .init(maxBufferSize: 2 * image.frameByteCount),
                                         clock: clock)
        XCTAssertEqual(player.bufferCapacity, 2)
        var held: [Int] = []
        var iterator = player.frames.makeAsyncIterator()
        player.play()
        var frames: [AnimatedImagePlayer.Frame] = []
        while frames.count < 88, let frame = await iterator.next() {
            frames.append(frame)
            held.append(image.decodedFrameIndices.count)
        }
        player.stop()
        XCTAssertEqual(frames.map(\.index), Array(0..<44) + Array(0..<44), "two loops, no frame skipped")
        for frame in frames {
            XCTAssertEqual(frame.pixels, eager.frames[frame.index].pixels, "frame \(frame.index) of loop \(frame.loop)")
        }
        XCTAssertLessThanOrEqual(held.max() ?? 0, 2)
        XCTAssertEqual(image.peakDecodedFrameCount, 2, "the next frame is decoded ahead, never more")
        XCTAssertTrue((88...89).contains(image.decodeCount), "each frame decoded once a loop: \(image.decodeCount)")
        print("sd_1@2x.gif, 2-frame buffer: peak \(image.peakDecodedFrameCount) frames held,"
              + " \(image.decodeCount) decodes for 88 frames shown")
    }

    func testABufferWithRoomForEveryFrameNeverDecodesTwice() async throws {
        let image = try AnimatedImage(data: Fixtures.imageData("gif/sd_1@2x.gif"), coder: GIFCoder())
        let clock = TestClock()
        let player = AnimatedImagePlayer(image: image, configuration: .init(maxBufferSize: 44 * image.frameByteCount),
                                         clock: clock)
        let frames = await collect(player, clock: clock, count: 3 * 44)
        XCTAssertEqual(frames.count, 132)
        XCTAssertEqual(image.decodeCount, 44)
        XCTAssertEqual(image.peakDecodedFrameCount, 44)
        XCTAssertEqual(image.memoryCost, 44 * image.frameByteCount)
    }
}
