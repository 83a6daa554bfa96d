/// Plays an ``AnimatedImage`` on a clock (SDWebImage's `SDAnimatedImagePlayer`): which frame
/// shows when, in which order, how fast and how many times, decoding frames into a buffer
/// bounded in bytes.
///
/// Frames reach you through ``frames`` (an `AsyncSequence`; a view binding iterates it) and
/// ``onFrame``. By default no frame is ever skipped: the next frame waits until every
/// iterator of ``frames`` has asked for it, so a lagging consumer sees every frame and the
/// animation slows down instead; ``Configuration/dropsFramesToKeepTime`` skips frames whose
/// time has passed. Playback stops after the image's loop count (0 = forever); a bounce
/// counts a there-and-back as one loop.
///
/// The clock is injected: any `Clock` measured in `Duration` (`ContinuousClock` by default),
/// so tests run playback on a clock of their own. Frames are decoded on a task of the
/// player's, never on the caller's. Dropping the player stops playback and ends its frames.
public final class AnimatedImagePlayer: Sendable {
    private let engine: PlaybackEngine

    /// A player of `image`, stopped on its first frame until ``play()``.
    public init(image: AnimatedImage, configuration: Configuration = Configuration(),
                clock: some Clock<Duration> = ContinuousClock()) {
        engine = PlaybackEngine(image: image, configuration: configuration, clock: PlaybackClock(clock))
    }

    deinit {
        engine.shutDown()
    }

    /// The animation played.
    public var image: AnimatedImage { engine.image }

    /// How it plays; ``playbackRate`` can change while playing.
    public var configuration: Configuration { engine.state.withLock { $0.configuration } }

    /// Speed: 2 plays twice as fast; 0 or less stops on the current frame until it is
    /// positive again, when that frame gets the rest of its time.
    public var playbackRate: Double {
        get { engine.state.withLock { $0.configuration.playbackRate } }
        set { engine.update { $0.configuration.playbackRate = newValue; return false } }
    }

    /// The most frames the frame buffer holds: ``Configuration/maxBufferSize`` over the bytes
    /// of a frame, at least one.
    public var bufferCapacity: Int { engine.bufferCapacity }

    /// The index of the frame showing (or to be shown first).
    public var currentFrameIndex: Int {
        let position = engine.state.withLock { $0.position }
        return engine.timeline.frameIndex(at: position)
    }

    /// The loop playing, from 0.
    public var currentLoop: Int {
        let position = engine.state.withLock { $0.position }
        return engine.timeline.loop(at: position)
    }

    /// The frame shown last, if any.
    public var currentFrame: Frame? { engine.state.withLock { $0.lastFrame } }

    /// Whether ``play()`` is in effect (a rate of 0 or less holds the frames still, though).
    public var isPlaying: Bool { engine.state.withLock { $0.isPlaying && !$0.isFinished } }

    /// Whether the last loop has played, or a frame failed (see ``failure``).
    public var isFinished: Bool { engine.state.withLock { $0.isFinished } }

    /// The error that stopped playback, if a frame could not be decoded.
    public var failure: AnimatedImageError? { engine.state.withLock { $0.failure } }

    /// Called with every frame shown, on the player's task.
    public var onFrame: (@Sendable (Frame) -> Void)? {
        get { engine.state.withLock { $0.onFrame } }
        set { engine.state.withLock { $0.onFrame = newValue } }
    }

    /// Called once playback ends: with nil after the last loop, with the error when a frame failed.
    public var onFinish: (@Sendable (AnimatedImageError?) -> Void)? {
        get { engine.state.withLock { $0.onFinish } }
        set { engine.state.withLock { $0.onFinish = newValue } }
    }

    /// The frames as they are shown. Each iteration is a subscriber: its first element is
    /// the frame showing when it started, if any; it ends when playback finishes or the
    /// player is gone.
    public var frames: Frames { Frames(engine: engine) }

    /// Starts or resumes playback: the frame showing gets the rest of its time. After the
    /// last loop (or a failure) it starts again from the beginning.
    public func play() {
        engine.update { state in
            if state.isFinished {
                state.isFinished = false
                state.failure = nil
                state.position = 0
                state.shownAt = nil
            }
            state.isPlaying = true
            return false
        }
    }

    /// Pauses on the frame showing.
    public func pause() {
        engine.update { state in
            state.isPlaying = false
            return false
        }
    }

    /// Stops and rewinds to the first frame of the first loop, dropping the decoded frames
    /// (SDWebImage's `stopPlaying`).
    public func stop() {
        engine.update { state in
            state.isPlaying = false
            state.isFinished = false
            state.failure = nil
            state.position = 0
            state.shownAt = nil
            return false
        }
        engine.image.evictFrames { _ in false }
    }

    /// Jumps to frame `index` of `loop` (its first showing in that loop, for a bounce): it is
    /// shown at once when playing, otherwise on ``play()``.
    public func seek(toFrame index: Int, loop: Int = 0) throws(AnimatedImageError) {
        let position = try engine.timeline.position(ofFrame: index, loop: loop)
        engine.update { state in
            state.isFinished = false
            state.failure = nil
            state.position = position
            state.shownAt = nil
            state.pausedAt = nil
            return true
        }
    }
}
