import Dispatch
import Foundation
import Synchronization

/// What the binding keeps with one target (SDWebImage keeps it in associated objects): the
/// running load per operation key, the URL asked for last, and the indicator and transition.
///
/// Every change to the target — placeholder, partial and final image, indicator — and every
/// callback of its loads runs on ``queue``, in the order the loads were asked for, so the
/// target ends up showing the image of its last request. When the state is released with its
/// target, the target's loads are cancelled.
public final class WebImageTargetState: Sendable {
    /// The serial queue the target is updated on: `DispatchQueue.main` for a UI, or a queue of
    /// the target's own.
    public let queue: DispatchQueue

    private struct Load {
        var generation: Int
        var operation: WebImageOperation?
    }

    private struct Loads {
        var byKey: [String: Load] = [:]
        var generation = 0
        var currentURL: URL?
        var indicator: (any ImageIndicator)?
        var transition: ImageTransition?
    }

    private let loads = Mutex(Loads())

    /// A state whose target is updated on `queue` (a new serial queue by default).
    public init(queue: DispatchQueue = DispatchQueue(label: "WebImage.target")) {
        self.queue = queue
    }

    deinit {
        for load in loads.withLock({ $0.byKey.values }) { load.operation?.cancel() }
    }

    /// The URL of the last ``WebImageBinding/setImage(with:placeholder:options:context:progress:completed:)``
    /// (SDWebImage's `sd_imageURL`).
    public var currentURL: URL? { loads.withLock { $0.currentURL } }

    /// Shown while a load runs; nil for none.
    public var indicator: (any ImageIndicator)? {
        get { loads.withLock { $0.indicator } }
        set { loads.withLock { $0.indicator = newValue } }
    }

    /// How a downloaded image is shown; nil sets it directly.
    public var transition: ImageTransition? {
        get { loads.withLock { $0.transition } }
        set { loads.withLock { $0.transition = newValue } }
    }

    /// Starts a load of `url` under `key`: it becomes the key's current load, and the one it
    /// replaces is cancelled unless `keepPrevious`. Returns the new load's generation.
    func begin(_ url: URL?, key: String, keepPrevious: Bool) -> Int {
        let (generation, replaced) = loads.withLock { loads -> (Int, WebImageOperation?) in
            loads.generation += 1
            loads.currentURL = url
            let old = loads.byKey.updateValue(Load(generation: loads.generation), forKey: key)
            return (loads.generation, old?.operation)
        }
        if !keepPrevious { replaced?.cancel() }
        return generation
    }

    /// Records the operation of load `generation`; cancels it at once when that load was
    /// replaced or cancelled in the meantime (unless `keepIfReplaced`).
    func attach(_ operation: WebImageOperation, key: String, generation: Int, keepIfReplaced: Bool) {
        let current = loads.withLock { loads -> Bool in
            guard loads.byKey[key]?.generation == generation else { return false }
            loads.byKey[key]?.operation = operation
            return true
        }
        if !current && !keepIfReplaced { operation.cancel() }
    }

    /// Whether load `generation` is still the current one under `key`.
    func isCurrent(_ generation: Int, key: String) -> Bool {
        loads.withLock { $0.byKey[key]?.generation == generation }
    }

    /// Forgets load `generation` under `key` once it has ended, if nothing replaced it.
    func end(_ generation: Int, key: String) {
        loads.withLock { loads in
            if loads.byKey[key]?.generation == generation { loads.byKey[key] = nil }
        }
    }

    /// Cancels the current load under `key`; its completion reports ``WebImageError/cancelled``.
    func cancel(key: String) {
        loads.withLock { $0.byKey.removeValue(forKey: key) }?.operation?.cancel()
    }
}
