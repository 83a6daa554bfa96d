import Dispatch

/// What one load of the target binding hands the target and the caller: on the target's
/// queue, and to the target only while the load is still its current one under its key.
struct TargetDelivery<Target: WebImageTarget>: Sendable {
    weak var target: Target?
    weak var state: WebImageTargetState?
    let queue: DispatchQueue
    let key: String
    let generation: Int
    let options: WebImageOptions
    let placeholder: Image?
    let completed: ImageLoadCompletion?

    init(target: Target, state: WebImageTargetState, key: String, generation: Int, options: WebImageOptions,
         placeholder: Image?, completed: ImageLoadCompletion?) {
        self.target = target
        self.state = state
        queue = state.queue
        self.key = key
        self.generation = generation
        self.options = options
        self.placeholder = placeholder
        self.completed = completed
    }

    /// Runs `body` on the target's queue, at once when already there.
    private func perform(_ body: @escaping @Sendable () -> Void) {
        WebImageTargetState.perform(on: queue, body)
    }

    /// The target and its state, when the load is still the target's current one.
    private var current: (target: Target, state: WebImageTargetState)? {
        guard let target, let state, state.isCurrent(generation, key: key) else { return nil }
        return (target, state)
    }

    /// Shows the placeholder (unless `delayPlaceholder`) and starts the indicator. The
    /// placeholder is set once for every set-image call, as SDWebImage sets it, even when a
    /// later call has replaced this load by the time the queue gets to it; the indicator only
    /// for the current load.
    func start() {
        perform {
            guard let target else { return }
            if !options.contains(.delayPlaceholder) { target.setImage(placeholder) }
            current?.state.indicator?.startAnimating()
        }
    }

    /// Reports download progress.
    func progress(_ value: ImageLoadingProgress, then report: (@Sendable (ImageLoadingProgress) -> Void)?) {
        perform {
            guard let (_, state) = current else { return }
            if let fraction = value.fractionCompleted { state.indicator?.updateProgress(fraction) }
            report?(value)
        }
    }

    /// Shows a partial image, or under `refreshCached` the cached one, and passes it on.
    func partial(_ result: Result<ImageResult, WebImageError>) {
        perform {
            guard let (target, state) = current else { return }
            if case .success(let loaded) = result { show(loaded, finished: false, on: target, state: state) }
            completed?(result, false)
        }
    }

    /// Shows the final image (or, with `delayPlaceholder`, the placeholder on failure) and
    /// completes. A load that is no longer current completes with ``WebImageError/cancelled``,
    /// unless `avoidAutoCancelImage` let it run on: then it completes with its own result,
    /// but the target is left alone.
    func finish(_ result: Result<ImageResult, WebImageError>) {
        perform {
            defer { state?.end(generation, key: key) }
            guard let (target, state) = current else {
                let keptRunning = state?.finishKeptRunning(generation) == true && target != nil
                completed?(keptRunning ? result : .failure(.cancelled), true)
                return
            }
            state.indicator?.stopAnimating()
            switch result {
            case .success(let loaded): show(loaded, finished: true, on: target, state: state)
            case .failure(.cancelled): break  // its placeholder was shown as it was cancelled
            case .failure: if options.contains(.delayPlaceholder) { target.setImage(placeholder) }
            }
            completed?(result, true)
        }
    }

    /// The load was cancelled by its caller while it may still be the target's current one:
    /// with `delayPlaceholder`, its placeholder is shown there and then (at once on the
    /// target's queue), before any later load's, as SDWebImage shows it.
    func cancelled() {
        perform {
            guard let (target, _) = current, options.contains(.delayPlaceholder) else { return }
            target.setImage(placeholder)
        }
    }

    /// Shows `loaded`: played frame by frame when it is a finished animation the state asks
    /// to play (its frames as the load decoded them, nothing decoded again), through the
    /// transition when it is a finished download (or `forceTransition`), directly otherwise.
    private func show(_ loaded: ImageResult, finished: Bool, on target: Target, state: WebImageTargetState) {
        guard !options.contains(.avoidAutoSetImage) else { return }
        if finished && loaded.image.isAnimated, let playback = state.animatedImagePlayback {
            play(AnimatedImage(image: loaded.image), like: loaded.image, configuration: playback, state: state)
        } else if finished, let transition = state.transition, loaded.source == .network || options.contains(.forceTransition) {
            transition.apply(target, loaded.image)
        } else {
            target.setImage(loaded.image)
        }
    }

    /// Shows `animation` frame by frame, as stills with the scale and format of `image`, while
    /// this load is the target's current one.
    private func play(_ animation: AnimatedImage, like image: Image, configuration: AnimatedImagePlayer.Configuration,
                      state: WebImageTargetState) {
        let player = AnimatedImagePlayer(image: animation, configuration: configuration)
        let delivery = self
        player.onFrame = { frame in
            delivery.perform {
                guard let (target, _) = delivery.current else { return }
                target.setImage(Image(pixels: frame.pixels, scale: image.scale, format: image.format, orientation: image.orientation))
            }
        }
        state.attach(player, key: key, generation: generation)
    }
}
