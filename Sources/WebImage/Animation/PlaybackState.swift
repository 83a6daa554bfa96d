/// Everything about a playback that changes, kept behind the engine's lock.
struct PlaybackState {
    var configuration: AnimatedImagePlayer.Configuration
    /// The step shown now (or to be shown first).
    var position = 0
    /// When the frame of ``position`` was due on screen; nil until it has been shown. The
    /// next frame is due a frame duration later.
    var shownAt: Duration?
    /// When the driver last stopped while a frame was showing; resuming shifts ``shownAt`` by
    /// the pause, so the frame gets what was left of its time.
    var pausedAt: Duration?
    /// Whether the user wants it to play (``AnimatedImagePlayer/play()``).
    var isPlaying = false
    /// Whether the last loop has played, or a frame failed to decode.
    var isFinished = false
    /// Why playback stopped early.
    var failure: AnimatedImageError?
    /// Whether the player is gone: iterators end.
    var isShutDown = false
    /// The task playing frames, while the player runs.
    var driver: Task<Void, Never>?
    /// Tells the current driver from one that was stopped: a stale driver's results are dropped.
    var generation = 0
    /// The frame shown last.
    var lastFrame: AnimatedImagePlayer.Frame?
    var subscribers: [Int: FrameSubscriber] = [:]
    var nextSubscriberID = 0
    /// The driver, waiting until every iterator has asked for the next frame.
    var demandWaiter: CheckedContinuation<Void, Never>?
    var onFrame: (@Sendable (AnimatedImagePlayer.Frame) -> Void)?
    var onFinish: (@Sendable (AnimatedImageError?) -> Void)?

    /// Whether a driver should be running.
    var shouldRun: Bool {
        isPlaying && configuration.playbackRate > 0 && !isFinished && !isShutDown
    }

    /// The step after the one showing, at `now`.
    ///
    /// The next frame is due when the current one's time is up. Without frame dropping a
    /// late step still shows the next frame, and a step a whole frame late starts the
    /// schedule afresh rather than rush; with dropping, frames whose whole time has passed
    /// are skipped (never the last one).
    func nextStep(now: Duration, timeline: PlaybackTimeline) -> PlaybackStep {
        guard let shownAt else { return .show(position: position, due: now) }
        let rate = configuration.playbackRate
        var due = shownAt + timeline.duration(at: position, rate: rate)
        var next = position + 1
        guard timeline.contains(next) else { return .finish(at: due) }
        if configuration.dropsFramesToKeepTime {
            while timeline.contains(next + 1) {
                let end = due + timeline.duration(at: next, rate: rate)
                if end > now { break }
                due = end
                next += 1
            }
        } else if now - due >= timeline.duration(at: next, rate: rate) {
            due = now
        }
        return .show(position: next, due: due)
    }

    /// Takes the driver's continuation if every iterator is now waiting for a frame.
    mutating func takeDemandWaiterIfReady() -> CheckedContinuation<Void, Never>? {
        guard subscribers.values.allSatisfy({ $0.waiting != nil }) else { return nil }
        return demandWaiter.take()
    }

    /// Takes the continuations of every waiting iterator.
    mutating func takeWaitingSubscribers() -> [CheckedContinuation<AnimatedImagePlayer.Frame?, Never>] {
        var waiting: [CheckedContinuation<AnimatedImagePlayer.Frame?, Never>] = []
        for id in subscribers.keys {
            if let continuation = subscribers[id]?.waiting.take() { waiting.append(continuation) }
        }
        return waiting
    }
}
