import AsyncHTTPClient
import Locking
import Tracing

/// One shared HTTP request as its exchange sees it: what to fetch and how, the two facts it keeps
/// without the downloader's lock (read or written for every part of the body), and the step
/// under way, to stop when the request is cancelled.
///
/// A class, so that the scheduler and the exchange share one reference instead of copying the
/// key and options at every step.
final class DownloadRequest: Sendable {
    /// The scheduler's identifier of the request; identifiers grow in creation order, which FIFO
    /// and LIFO follow.
    let operation: UInt64
    let key: DownloadKey
    /// The options of the caller that created the request: they shape the request.
    let options: ImageLoaderOptions
    /// The trace context of the caller that created the request (`ServiceContext.current` then):
    /// its download span is that caller's child, whichever task starts it.
    let traceContext: ServiceContext?
    /// How often the request made progress (its head or a part of its body arrived): the idle
    /// watchdog compares it between its rounds.
    private let activity = Atomic<Int>(0)
    /// Whether a caller with an event handler ever joined; until one has, progress goes to nobody
    /// and is not looked up under the lock.
    private let listened = Atomic<Bool>(false)
    /// The `Retry-After` of the last answer refused, for the retry policy.
    private let retryAfter = Mutex<String?>(nil)
    /// When the request was first sent, for ``DownloadNotification/elapsed``.
    private let sent = Mutex<ContinuousClock.Instant?>(nil)

    /// A step of the request, to stop on ``cancel()``.
    enum Step: Sendable {
        /// A task working for the request: preparing it (a request modifier, an address policy's
        /// answers) or checking its response (a response modifier).
        case task(Task<Void, Never>)
        /// The HTTP exchange (one hop of it, under a ``ConnectionAddressPolicy``).
        case exchange(HTTPClient.Task<DownloadExchange.Outcome>)
    }

    /// The steps under way, and whether the request was cancelled. Most requests have no task.
    private let steps = Mutex<(tasks: [Task<Void, Never>], exchange: HTTPClient.Task<DownloadExchange.Outcome>?,
                               isCancelled: Bool)>(([], nil, false))
    /// Whether a caller who asked for partial images (and listens to events) ever joined.
    private let awaitsPartialImages = Atomic<Bool>(false)

    /// The request `operation` for `key`, shaped by `options`.
    init(operation: UInt64, key: DownloadKey, options: ImageLoaderOptions) {
        self.operation = operation
        self.key = key
        self.options = options
        traceContext = ServiceContext.current
    }

    /// Posts a notification of `kind` (with the `status`, `bytes` or `error` it has) to
    /// ``DownloadNotifications/shared``, when anybody listens; the first `started` dates the request.
    func notify(_ kind: DownloadNotification.Kind, status: Int? = nil, bytes: Int? = nil, error: WebImageError? = nil) {
        DownloadNotifications.shared.post {
            let now = ContinuousClock.now
            let first = sent.withLock { sent in
                if sent == nil { sent = now }
                return sent ?? now
            }
            return DownloadNotification(kind: kind, url: key.url, operation: operation, status: status, bytes: bytes,
                                        elapsed: first.duration(to: now), error: error)
        }
    }

    /// Keeps the `Retry-After` of an answer about to be refused (nil when it had none).
    func keepRetryAfter(_ value: String?) {
        retryAfter.withLock { $0 = value }
    }

    /// The `Retry-After` kept, forgotten as it is taken.
    func takeRetryAfter() -> String? {
        retryAfter.withLock { value in
            defer { value = nil }
            return value
        }
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

    /// Records that a caller who asked for partial images joined.
    func notePartialImageListener() {
        awaitsPartialImages.store(true, ordering: .relaxed)
    }

    /// Whether a caller who asked for partial images ever joined.
    var hasPartialImageListeners: Bool {
        awaitsPartialImages.load(ordering: .relaxed)
    }

    /// Adds `step` to the steps under way (an exchange replaces the one before). Returns false
    /// when the request was cancelled already: then `step` is stopped at once.
    @discardableResult
    func begin(_ step: Step) -> Bool {
        let running = steps.withLock { steps in
            guard !steps.isCancelled else { return false }
            switch step {
            case .task(let task): steps.tasks.append(task)
            case .exchange(let exchange): steps.exchange = exchange
            }
            return true
        }
        if !running { Self.stop(step) }
        return running
    }

    /// Stops the steps under way, and every later one as it begins: the tasks are cancelled and
    /// the exchange fails (with `HTTPClientError.cancelled`, once the work it waits for ends).
    func cancel() {
        let (tasks, exchange) = steps.withLock { steps in
            defer { steps = ([], nil, true) }
            return (steps.tasks, steps.exchange)
        }
        for task in tasks { task.cancel() }
        exchange?.cancel()
    }

    private static func stop(_ step: Step) {
        switch step {
        case .task(let task): task.cancel()
        case .exchange(let exchange): exchange.cancel()
        }
    }
}
