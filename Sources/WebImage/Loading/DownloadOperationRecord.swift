/// The scheduler's record of one HTTP request and the callers that share it.
///
/// A class, so that the scheduler's many reads and updates of one field go through a reference
/// instead of copying the record out of its dictionary and writing it back. Only the scheduler,
/// under the downloader's lock, touches it.
final class DownloadOperationRecord {
    /// Where the request is in its life.
    enum Phase {
        /// Waiting for a free slot (or for the downloader to resume).
        case queued
        /// The HTTP request is under way.
        case running
        /// The bytes are in and being decoded for the callers; the slot is free again.
        case decoding
    }

    let key: DownloadKey
    /// The options of the caller that created the request: they shape the request.
    let options: ImageLoaderOptions
    /// Creation order, for FIFO and LIFO.
    let sequence: UInt64
    var phase = Phase.queued
    /// Whether the request counts against ``HTTPImageDownloader.Configuration/maxConcurrentDownloads``.
    var holdsSlot = false
    /// The callers waiting on the request, by caller identifier.
    private(set) var callers: [UInt64: DownloadCaller] = [:]
    /// The priority of the most urgent caller; ``DownloadPriority/low`` without callers. Kept as
    /// callers come and go rather than computed, because the queue reads it for every request
    /// it starts.
    private(set) var priority = DownloadPriority.low
    var task: Task<Void, Never>?
    /// When the request last made progress (it started, its head or a body part arrived): what
    /// the downloader's idle watchdog measures silence from.
    var lastActivity: ContinuousClock.Instant?
    /// Whether the idle watchdog cancelled the request, so that its cancellation is reported
    /// as ``WebImageError/timedOut(seconds:)``.
    var timedOut = false

    /// A queued request for `key`, shaped by `options`, created `sequence`-th.
    init(key: DownloadKey, options: ImageLoaderOptions, sequence: UInt64) {
        self.key = key
        self.options = options
        self.sequence = sequence
    }

    /// Adds `caller` under `id`.
    func addCaller(_ caller: DownloadCaller, id: UInt64) {
        callers[id] = caller
        priority = max(priority, caller.priority)
    }

    /// Removes and returns the caller `id`; nil when it is not waiting (any more).
    func removeCaller(_ id: UInt64) -> DownloadCaller? {
        guard let removed = callers.removeValue(forKey: id) else { return nil }
        if removed.priority == priority {
            priority = callers.values.reduce(.low) { max($0, $1.priority) }
        }
        return removed
    }

    /// Removes and returns every caller.
    func removeAllCallers() -> [DownloadCaller] {
        defer {
            callers.removeAll()
            priority = .low
        }
        return Array(callers.values)
    }

    /// Records `received` bytes at `now` and returns the event handlers of the callers due a
    /// progress event.
    func progressHandlers(received: Int, expected: Int?, now: ContinuousClock.Instant) -> [ImageLoadingEventHandler] {
        lastActivity = now
        var handlers: [ImageLoadingEventHandler] = []
        // Index by index, so that each caller is updated in place without copying the dictionary.
        var index = callers.startIndex
        while index != callers.endIndex {
            if let events = callers.values[index].events,
               callers.values[index].admitProgress(received: received, expected: expected, now: now) {
                handlers.append(events)
            }
            callers.formIndex(after: &index)
        }
        return handlers
    }

    /// This record's entry in the ``DownloadQueue``, at its priority now.
    func queueEntry(_ operation: UInt64) -> DownloadQueue.Entry {
        DownloadQueue.Entry(operation: operation, priority: priority, sequence: sequence)
    }
}
