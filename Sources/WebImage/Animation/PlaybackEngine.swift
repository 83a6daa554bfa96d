import Locking

/// The working part of an ``AnimatedImagePlayer``: its state, the task that plays frames on
/// the clock, and the iterators of its frames. The player owns it and shuts it down when it
/// goes; the task and the iterators hold the engine, never the player.
final class PlaybackEngine: Sendable {
    let image: AnimatedImage
    let timeline: PlaybackTimeline
    let clock: PlaybackClock
    private let buffer: PlaybackFrameBuffer
    let state: Mutex<PlaybackState>

    init(image: AnimatedImage, configuration: AnimatedImagePlayer.Configuration, clock: PlaybackClock) {
        self.image = image
        timeline = PlaybackTimeline(mode: configuration.playbackMode, frameCount: image.frameCount,
                                    loopCount: image.loopCount, durations: image.durations)
        self.clock = clock
        buffer = PlaybackFrameBuffer(image: image, timeline: timeline, maxBufferSize: configuration.maxBufferSize)
        state = Mutex(PlaybackState(configuration: configuration))
    }

    /// The most frames the buffer holds.
    var bufferCapacity: Int { buffer.capacity }

    // MARK: - Control

    /// Applies `change`, then starts or stops the driver to match. `change` returns true when
    /// a running driver must start over (after a seek).
    func update(_ change: (inout PlaybackState) -> Bool) {
        let now = clock.now()
        let stopped: Task<Void, Never>? = state.withLock { state in
            let restart = change(&state)
            var stopped: Task<Void, Never>?
            if let driver = state.driver, restart || !state.shouldRun {
                stopped = driver
                state.driver = nil
                state.generation += 1
                state.pausedAt = state.shownAt == nil ? nil : now
            }
            if state.shouldRun, state.driver == nil {
                if let pausedAt = state.pausedAt.take(), let shownAt = state.shownAt {
                    state.shownAt = shownAt + (now - pausedAt)
                }
                let generation = state.generation
                state.driver = Task { await self.run(generation: generation) }
            }
            return stopped
        }
        // Outside the lock: cancelling runs the driver's cancellation handlers, which take it.
        stopped?.cancel()
    }

    /// Stops for good: the driver ends and every iterator finishes.
    func shutDown() {
        let (driver, waiting) = state.withLock { state in
            state.isShutDown = true
            state.generation += 1
            return (state.driver.take(), state.takeWaitingSubscribers())
        }
        driver?.cancel()
        for continuation in waiting { continuation.resume(returning: nil) }
    }

    // MARK: - The driver

    /// Plays steps until the last loop is over, a frame fails, or a newer driver replaces it.
    private func run(generation: Int) async {
        while await waitForDemand() {
            let now = clock.now()
            let step = state.withLock { state in
                state.generation == generation ? state.nextStep(now: now, timeline: timeline) : nil
            }
            switch step {
            case nil:
                return
            case .finish(let end)?:
                guard await sleep(until: end, now: now) else { return }
                finish(generation: generation, failure: nil)
                return
            case .show(let position, let due)?:
                let pixels: PixelBuffer
                do {
                    pixels = try buffer.frame(at: position)
                } catch {
                    finish(generation: generation, failure: error)
                    return
                }
                guard await sleep(until: due, now: now),
                      show(position: position, due: due, pixels: pixels, generation: generation)
                else { return }
                // A frame that fails here fails again when its turn comes, and is reported then.
                try? buffer.decodeAhead(of: position)
            }
        }
    }

    /// Sleeps until `time`; false when cancelled.
    private func sleep(until time: Duration, now: Duration) async -> Bool {
        guard time > now else { return !Task.isCancelled }
        do {
            try await clock.sleep(time)
            return true
        } catch {
            return false
        }
    }

    /// Waits until every iterator of the frames waits for the next one (at once without
    /// iterators): a slow consumer holds playback back instead of missing frames. False when
    /// the driver is cancelled.
    private func waitForDemand() async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state in
                    if Task.isCancelled || state.subscribers.values.allSatisfy({ $0.waiting != nil }) {
                        return true
                    }
                    state.demandWaiter = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.demandWaiter.take() }?.resume()
        }
        return !Task.isCancelled
    }

    /// Makes step `position` the one showing and hands its frame to the iterators and the
    /// frame handler; false when this driver has been replaced.
    private func show(position: Int, due: Duration, pixels: PixelBuffer, generation: Int) -> Bool {
        let frame = AnimatedImagePlayer.Frame(index: timeline.frameIndex(at: position),
                                              loop: timeline.loop(at: position), pixels: pixels, time: clock.now())
        let delivery = state.withLock { state -> ([CheckedContinuation<AnimatedImagePlayer.Frame?, Never>],
                                                  (@Sendable (AnimatedImagePlayer.Frame) -> Void)?)? in
            guard state.generation == generation else { return nil }
            state.position = position
            state.shownAt = due
            state.lastFrame = frame
            var waiting: [CheckedContinuation<AnimatedImagePlayer.Frame?, Never>] = []
            for id in state.subscribers.keys {
                // An iterator not waiting joined since the driver last waited: it gets this frame next.
                if let continuation = state.subscribers[id]?.waiting.take() {
                    waiting.append(continuation)
                } else {
                    state.subscribers[id]?.pending = frame
                }
            }
            return (waiting, state.onFrame)
        }
        guard let (waiting, onFrame) = delivery else { return false }
        for continuation in waiting { continuation.resume(returning: frame) }
        onFrame?(frame)
        return true
    }

    /// Ends playback: iterators finish and the finish handler hears why.
    private func finish(generation: Int, failure: AnimatedImageError?) {
        let ending = state.withLock { state -> ([CheckedContinuation<AnimatedImagePlayer.Frame?, Never>],
                                                (@Sendable (AnimatedImageError?) -> Void)?)? in
            guard state.generation == generation else { return nil }
            state.isFinished = true
            state.failure = failure
            state.driver = nil
            return (state.takeWaitingSubscribers(), state.onFinish)
        }
        guard let (waiting, onFinish) = ending else { return }
        // The handler first: an iterator that has ended can count on it having run.
        onFinish?(failure)
        for continuation in waiting { continuation.resume(returning: nil) }
    }

    // MARK: - Iterators

    /// Registers an iterator; its first `next()` returns the frame showing now, if any.
    func subscribe() -> Int {
        state.withLock { state in
            let id = state.nextSubscriberID
            state.nextSubscriberID += 1
            state.subscribers[id] = FrameSubscriber(waiting: nil, pending: state.lastFrame)
            return id
        }
    }

    /// Removes an iterator; the driver no longer waits for it.
    func unsubscribe(_ id: Int) {
        let (waiting, demand) = state.withLock { state in
            (state.subscribers.removeValue(forKey: id)?.waiting, state.takeDemandWaiterIfReady())
        }
        waiting?.resume(returning: nil)
        demand?.resume()
    }

    /// The next frame for iterator `id`: one shown while it was away, or the next one shown;
    /// nil once playback has finished or the player is gone, or when its task is cancelled.
    func nextFrame(for id: Int) async -> AnimatedImagePlayer.Frame? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<AnimatedImagePlayer.Frame?, Never>) in
                let (answer, demand) = state.withLock { state -> (AnimatedImagePlayer.Frame??, CheckedContinuation<Void, Never>?) in
                    guard state.subscribers[id] != nil, !Task.isCancelled, !state.isShutDown else { return (.some(nil), nil) }
                    if let pending = state.subscribers[id]?.pending.take() { return (pending, nil) }
                    if state.isFinished { return (.some(nil), nil) }
                    state.subscribers[id]?.waiting = continuation
                    return (nil, state.takeDemandWaiterIfReady())
                }
                demand?.resume()
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            unsubscribe(id)
        }
    }
}
