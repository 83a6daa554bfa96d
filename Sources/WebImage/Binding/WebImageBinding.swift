import Foundation

/// Loads images into one target (SDWebImage's `sd_setImageWithURL:` family): the target's
/// ``WebImageTarget/webImage``.
///
/// A new load under an operation key cancels the target's running load under that key, so the
/// last URL asked for wins; the replaced load's completion reports ``WebImageError/cancelled``
/// and its image never reaches the target.
public struct WebImageBinding<Target: WebImageTarget>: Sendable {
    /// The target the images go to.
    public let target: Target

    /// The operation key used when the context names none: the target's type, as SDWebImage.
    public static var defaultOperationKey: String { String(describing: Target.self) }

    /// The URL of the target's last load.
    public var currentURL: URL? { target.webImageState.currentURL }

    /// Loads `url` and shows it on the target.
    ///
    /// - Parameters:
    ///   - url: the image to load; a nil URL fails at once with `WebImageError.invalidURL`.
    ///   - placeholder: shown at once (or, with `delayPlaceholder`, only if the load fails).
    ///   - options: the manager's options; `avoidAutoSetImage` leaves showing the image to
    ///     `completed`, `avoidAutoCancelImage` lets the previous load run on. With the state's
    ///     ``WebImageTargetState/animatedImagePlayback`` set, an animation plays frame by frame.
    ///   - context: the manager's context; its ``ImageContext/Settings/operationKey`` groups loads
    ///     (default: the target's type) and its ``ImageContext/Settings/manager`` loads them
    ///     (default: ``ImageManager/shared``).
    ///   - progress: download progress, on the target's queue.
    ///   - completed: runs once with `finished == true` on the target's queue (before that
    ///     with partial images of a `progressiveLoad`, or the cached image of a `refreshCached`).
    /// - Returns: the running load, or nil when `url` is nil.
    @discardableResult
    public func setImage(
        with url: URL?, placeholder: Image? = nil, options: WebImageOptions = [], context: ImageContext = ImageContext(),
        progress: (@Sendable (ImageLoadingProgress) -> Void)? = nil, completed: ImageLoadCompletion? = nil
    ) -> WebImageOperation? {
        let state = target.webImageState
        let key = context.operationKey ?? Self.defaultOperationKey
        let keepPrevious = options.contains(.avoidAutoCancelImage)
        let generation = state.begin(url, key: key, keepPrevious: keepPrevious)
        let manager = context.manager ?? .shared
        // As SDWebImage's view category passes it on: the manager that loads is not in the
        // context (it names itself), and the operation key is the one the load runs under.
        var loadContext = context
        loadContext.callbackQueue = nil
        loadContext.manager = nil
        loadContext.operationKey = key
        let delivery = TargetDelivery(target: target, state: state, key: key, generation: generation, options: options,
                                      placeholder: placeholder, completed: completed)
        delivery.start()
        guard let request = url.map({ manager.request(for: $0, options: options, context: loadContext) }) else {
            delivery.finish(.failure(.invalidURL("no URL")))
            return nil
        }
        let operation = manager.loadImage(
            request,
            progress: { value in delivery.progress(value, then: progress) },
            completed: { result, finished in
                if finished { delivery.finish(result) } else { delivery.partial(result) }
            })
        state.attach(operation, key: key, generation: generation)
        if options.contains(.delayPlaceholder) { operation.whenCancelled { delivery.cancelled() } }
        return operation
    }

    /// Cancels the target's running load under `key` (default: the target's type); its
    /// completion reports ``WebImageError/cancelled`` and its image is not shown.
    public func cancelCurrentLoad(forKey key: String? = nil) {
        target.webImageState.cancel(key: key ?? Self.defaultOperationKey)
    }
}
