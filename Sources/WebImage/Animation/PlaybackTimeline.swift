import Foundation

/// Where each step of a playback lands: step `position` (0, 1, 2, … from the start of the
/// first loop) shows one frame of one loop. The whole order of a playback follows from the
/// mode, the frame count and the loop count, so seeking is setting a position.
struct PlaybackTimeline: Sendable {
    let mode: AnimatedImagePlayer.PlaybackMode
    let frameCount: Int
    /// 0 = forever.
    let loopCount: Int
    /// Display time of each frame, in seconds, at rate 1.
    let durations: [TimeInterval]

    /// Whether frames go there and back (a single frame has nowhere to bounce to).
    private var bounces: Bool {
        (mode == .bounce || mode == .reversedBounce) && frameCount > 1
    }

    /// Steps in one loop.
    var period: Int { bounces ? 2 * frameCount - 2 : frameCount }

    /// Steps in the whole playback, nil when it plays forever. A bounce adds the closing step
    /// back onto the frame it started from.
    var positionCount: Int? {
        loopCount == 0 ? nil : loopCount * period + (bounces ? 1 : 0)
    }

    /// Whether step `position` is part of the playback.
    func contains(_ position: Int) -> Bool {
        position >= 0 && positionCount.map { position < $0 } ?? true
    }

    /// The frame step `position` shows.
    func frameIndex(at position: Int) -> Int {
        let offset = position % period
        let forward = offset < frameCount ? offset : period - offset
        switch mode {
        case .normal: return offset
        case .reversed: return frameCount - 1 - offset
        case .bounce: return forward
        case .reversedBounce: return frameCount - 1 - forward
        }
    }

    /// The loop (from 0) step `position` belongs to; a bounce's closing step belongs to the last loop.
    func loop(at position: Int) -> Int {
        let loop = position / period
        return loopCount == 0 ? loop : min(loop, loopCount - 1)
    }

    /// How long step `position` shows its frame at `rate`, at most ``longestStep`` (a rate
    /// barely above 0 would otherwise overflow `Duration`).
    func duration(at position: Int, rate: Double) -> Duration {
        .seconds(min(durations[frameIndex(at: position)] / rate, Self.longestStep))
    }

    /// A year, in seconds: longer than any frame is shown, well inside `Duration`'s range.
    static let longestStep: Double = 365 * 24 * 3600

    /// The first step of `loop` that shows frame `index`; throws when either is out of range.
    func position(ofFrame index: Int, loop: Int) throws(AnimatedImageError) -> Int {
        guard (0..<frameCount).contains(index) else {
            throw .frameOutOfRange(index: index, frameCount: frameCount)
        }
        guard loop >= 0, loopCount == 0 || loop < loopCount else {
            throw .loopOutOfRange(loop: loop, loopCount: loopCount)
        }
        let offset = (0..<period).first { frameIndex(at: $0) == index } ?? 0
        return loop * period + offset
    }
}
