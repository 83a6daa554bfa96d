import Dispatch
import Foundation
import Locking

/// What the binding keeps with one target (SDWebImage keeps it in associated objects): the
/// running load (and animation player) per operation key, the URL asked for last, the
/// indicator, the transition and how animations play.
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
        var player: AnimatedImagePlayer?
    }

    private struct Loads {
        var byKey: [String: Load] = [:]
        /// Replaced loads that run on, because their successor had `avoidAutoCancelImage`.
        var keptRunning: Set<Int> = []
        var generation = 0
        var currentURL: URL?
        var indicator: (any ImageIndicator)?
        var transition: ImageTransition?
        var playback: AnimatedImagePlayer.Configuration?
    }

    private let loads = Mutex(Loads())

    /// A state whose target is updated on `queue` (a new serial queue by default).
    public init(queue: DispatchQueue = DispatchQueue(label: "WebImage.target")) {
        self.queue = queue
        queue.setSpecific(key: Self.queueIdentity, value: ObjectIdentifier(queue))
    }

    /// Marks each target queue with its own identity, so that work asked for on it runs at once.
    private static let queueIdentity = DispatchSpecificKey<ObjectIdentifier>()

    /// Runs `body` on `queue`, a target queue: at once when called on it (SDWebImage's
    /// `dispatch_main_async_safe`: a placeholder or a memory hit is on the target when the
    /// set-image call returns), else after what is queued there already.
    static func perform(on queue: DispatchQueue, _ body: @escaping @Sendable () -> Void) {
        if DispatchQueue.getSpecific(key: queueIdentity) == ObjectIdentifier(queue) {
            body()
        } else {
            queue.async(execute: body)
        }
    }

    deinit {
        for load in loads.withLock({ $0.byKey.values }) {
            load.player?.stop()
            load.operation?.cancel()
        }
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

    /// Plays animated images on the target (SDWebImage's `SDAnimatedImageView`): when set, an
    /// animated result is shown frame by frame through ``WebImageTarget/setImage(_:)`` by an
    /// ``AnimatedImagePlayer`` with this configuration, decoding frames lazily from the
    /// encoded bytes; the player stops when the target loads something else. Nil (the
    /// default) hands the target the whole animated ``Image``.
    public var animatedImagePlayback: AnimatedImagePlayer.Configuration? {
        get { loads.withLock { $0.playback } }
        set { loads.withLock { $0.playback = newValue } }
    }

    /// Starts a load of `url` under `key`: it becomes the key's current load, and the one it
    /// replaces is cancelled unless `keepPrevious` (the new load's `avoidAutoCancelImage`).
    /// Returns the new load's generation.
    func begin(_ url: URL?, key: String, keepPrevious: Bool) -> Int {
        let (generation, replaced) = loads.withLock { loads -> (Int, Load?) in
            loads.generation += 1
            loads.currentURL = url
            let replaced = loads.byKey.updateValue(Load(generation: loads.generation), forKey: key)
            if keepPrevious, let replaced { loads.keptRunning.insert(replaced.generation) }
            return (loads.generation, replaced)
        }
        replaced?.player?.stop()
        if !keepPrevious { replaced?.operation?.cancel() }
        return generation
    }

    /// Records the operation of load `generation`; cancels it at once when that load was
    /// replaced or cancelled in the meantime, unless its successor let it run on.
    func attach(_ operation: WebImageOperation, key: String, generation: Int) {
        let cancel = loads.withLock { loads -> Bool in
            guard loads.byKey[key]?.generation == generation else { return !loads.keptRunning.contains(generation) }
            loads.byKey[key]?.operation = operation
            return false
        }
        if cancel { operation.cancel() }
    }

    /// Whether load `generation`, no longer current, was let run on by its successor; asked
    /// once, when it finishes.
    func finishKeptRunning(_ generation: Int) -> Bool {
        loads.withLock { $0.keptRunning.remove(generation) != nil }
    }

    /// Whether load `generation` is still the current one under `key`.
    func isCurrent(_ generation: Int, key: String) -> Bool {
        loads.withLock { $0.byKey[key]?.generation == generation }
    }

    /// Plays `player` for load `generation` under `key` while it is the current one.
    func attach(_ player: AnimatedImagePlayer, key: String, generation: Int) {
        let current = loads.withLock { loads -> Bool in
            guard loads.byKey[key]?.generation == generation else { return false }
            loads.byKey[key]?.player = player
            return true
        }
        if current { player.play() }
    }

    /// Forgets the operation of load `generation` under `key` once it has ended, if nothing
    /// replaced it; its player, if any, plays on.
    func end(_ generation: Int, key: String) {
        loads.withLock { loads in
            guard loads.byKey[key]?.generation == generation else { return }
            if loads.byKey[key]?.player == nil { loads.byKey[key] = nil } else { loads.byKey[key]?.operation = nil }
        }
    }

    /// Cancels the current load under `key`; its completion reports ``WebImageError/cancelled``.
    func cancel(key: String) {
        guard let load = loads.withLock({ $0.byKey.removeValue(forKey: key) }) else { return }
        load.player?.stop()
        load.operation?.cancel()
        let indicator = indicator
        Self.perform(on: queue) { indicator?.stopAnimating() }
    }
}
