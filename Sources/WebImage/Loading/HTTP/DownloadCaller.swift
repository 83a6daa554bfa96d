import Locking

/// One caller waiting on a shared download: what it wants decoded and where its events go.
///
/// A class, so that the scheduler hands callers around (to decode, to complete) by reference
/// instead of copying each one's options and closures.
final class DownloadCaller: Sendable {
    /// Callers with equal decode keys share one decode of the finished bytes.
    struct DecodeKey: Hashable {
        var options: ImageDecodeOptions
        var coders: ObjectIdentifier
    }

    let priority: DownloadPriority
    let coders: ImageCoders
    let progressive: Bool
    let progressInterval: Duration
    let events: ImageLoadingEventHandler?
    /// Wakes the caller: with its result, or, for a caller that ``delivers``, with its download's
    /// outcome to hand out.
    private let wake: @Sendable (DownloadWake) -> Void
    /// Whether the caller waits on a task that can hand its download's outcome out to every
    /// caller (an async caller), so that the downloader needs no task of its own for that.
    let delivers: Bool
    /// Callers with equal keys share one decode; nil for a caller of the bytes alone, which
    /// no decode waits for.
    let decodeKey: DecodeKey?
    /// When this caller last got a progress event (for ``progressInterval``) and for how many
    /// bytes (-1 before any). Only callers with events use it, so its lock is never contended.
    private let lastEvent = Mutex<(time: ContinuousClock.Instant?, receivedBytes: Int)>((nil, -1))

    /// A caller that asked with `options` and `events`, woken by `wake`; `delivers` says whether
    /// it may be woken with a delivery (see ``DownloadWake``), `decodes` whether it wants an
    /// image (else the bytes alone, and no partial images).
    init(options: ImageLoaderOptions, events: ImageLoadingEventHandler?, delivers: Bool, decodes: Bool = true,
         wake: @escaping @Sendable (DownloadWake) -> Void) {
        priority = options.priority
        coders = options.coders
        progressive = decodes && options.progressive
        progressInterval = options.progressInterval
        self.events = events
        self.delivers = delivers
        self.wake = wake
        decodeKey = decodes ? DecodeKey(options: options.decodeOptions, coders: ObjectIdentifier(options.coders)) : nil
    }

    /// Whether a progress event for `received` bytes should go to this caller at `now`: the
    /// first, the last (`received == expected`), and otherwise no more often than ``progressInterval``.
    func admitProgress(received: Int, expected: Int?, now: ContinuousClock.Instant) -> Bool {
        lastEvent.withLock { last in
            guard received > last.receivedBytes else { return false }
            let due = last.time.map { now - $0 >= progressInterval } ?? true
            guard due || received == expected else { return false }
            last = (now, received)
            return true
        }
    }

    /// The received count of the last progress event delivered to this caller; -1 before any.
    var lastReceivedBytes: Int {
        lastEvent.withLock { $0.receivedBytes }
    }

    /// Whether a cancel-all reached this caller while it was handing its download out: it then
    /// ends as cancelled.
    private let ownLoadCancelled = Atomic<Bool>(false)

    /// Tells a deliverer that its own load is cancelled (it completes the other callers all the same).
    func cancelOwnLoad() {
        ownLoadCancelled.store(true, ordering: .relaxed)
    }

    /// Whether ``cancelOwnLoad()`` was called.
    var isOwnLoadCancelled: Bool {
        ownLoadCancelled.load(ordering: .relaxed)
    }

    /// Completes the caller with `result`.
    func complete(_ result: Result<DownloadResult, WebImageError>) {
        wake(.finished(result))
    }

    /// Hands `delivery` to the caller, which must be one that ``delivers``.
    func handOut(_ delivery: DownloadDelivery) {
        wake(.deliver(delivery))
    }
}
