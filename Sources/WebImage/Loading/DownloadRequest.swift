import Locking

/// One shared HTTP request as the task that runs it sees it: what to fetch and how, and the two
/// facts it keeps without the downloader's lock, since it is read or written for every part of
/// the body.
///
/// A class, so that the scheduler and the task share one reference instead of copying the key
/// and options at every step.
final class DownloadRequest: Sendable {
    /// The scheduler's identifier of the request; identifiers grow in creation order, which FIFO
    /// and LIFO follow.
    let operation: UInt64
    let key: DownloadKey
    /// The options of the caller that created the request: they shape the request.
    let options: ImageLoaderOptions
    /// How often the request made progress (its head or a part of its body arrived): the idle
    /// watchdog compares it between its rounds.
    private let activity = Atomic<Int>(0)
    /// Whether a caller with an event handler ever joined; until one has, progress goes to nobody
    /// and is not looked up under the lock.
    private let listened = Atomic<Bool>(false)

    /// The request `operation` for `key`, shaped by `options`.
    init(operation: UInt64, key: DownloadKey, options: ImageLoaderOptions) {
        self.operation = operation
        self.key = key
        self.options = options
    }

    /// Counts one step of progress, for the idle watchdog.
    func noteActivity() {
        activity.wrappingAdd(1, ordering: .relaxed)
    }

    /// How many steps of progress the request has made.
    var activityCount: Int {
        activity.load(ordering: .relaxed)
    }

    /// Records that a caller with an event handler joined.
    func noteListener() {
        listened.store(true, ordering: .relaxed)
    }

    /// Whether a caller with an event handler ever joined.
    var hasListeners: Bool {
        listened.load(ordering: .relaxed)
    }
}
