/// The scheduler's record of one HTTP request and the callers that share it.
///
/// A class, so that the scheduler's many reads and updates of one field go through a reference
/// instead of copying the record out of its dictionary and writing it back. Only the scheduler,
/// under the downloader's lock, touches it; the request's exchange holds just its ``request``.
final class DownloadOperationRecord {
    /// Where the request is in its life.
    enum Phase {
        /// Waiting for a free slot (or for the downloader to resume).
        case queued
        /// The HTTP request is under way.
        case running
        /// The exchange has ended: its outcome is being handed out (the bytes decoded) to the
        /// callers. The request may still hold its slot (see ``DownloadScheduler/exchangeEnded(_:)``).
        case decoding
    }

    /// What the request fetches, as its exchange sees it (and shares with the exchange).
    let request: DownloadRequest
    var phase = Phase.queued
    /// Whether the request counts against ``HTTPImageDownloader.Configuration/maxConcurrentDownloads``.
    var holdsSlot = false
    /// The bytes of its body when the request freed its slot as its exchange ended, before
    /// being handed out; nil when it did not.
    var bytesHandedOutWithoutSlot: Int?
    /// The callers waiting on the request, by caller identifier.
    private(set) var callers: [UInt64: DownloadCaller] = [:]
    /// The priority of the most urgent caller; ``DownloadPriority/low`` without callers. Kept as
    /// callers come and go rather than computed, because the queue reads it for every request
    /// it starts.
    private(set) var priority = DownloadPriority.low
    /// The caller handing the request's outcome out, once one is chosen: it has left
    /// ``callers``, and a cancel-all reaches it through here.
    private(set) var deliverer: DownloadCaller?
    /// The request's ``DownloadRequest/activityCount`` at the idle watchdog's last round; nil
    /// before the watchdog first saw the request running.
    var activitySeen: Int?
    /// How many of the watchdog's rounds in a row found no new activity.
    var quietRounds = 0
    /// Rounds of the idle watchdog seen while running, progress or not.
    var roundsWatched = 0
    /// Whether the idle watchdog cancelled the request, so that its cancellation is reported
    /// as ``WebImageError/timedOut(seconds:)``.
    var timedOut = false

    /// The record of `request`, queued.
    init(_ request: DownloadRequest) {
        self.request = request
    }

    /// Adds `caller` under `id`.
    func addCaller(_ caller: DownloadCaller, id: UInt64) {
        callers[id] = caller
        priority = max(priority, caller.priority)
        if caller.events != nil {
            request.noteListener()
            if caller.progressive { request.notePartialImageListener() }
        }
    }

    /// Removes and returns the caller `id`; nil when it is not waiting (any more).
    func removeCaller(_ id: UInt64) -> DownloadCaller? {
        guard let removed = callers.removeValue(forKey: id) else { return nil }
        if removed.priority == priority {
            priority = callers.values.reduce(.low) { max($0, $1.priority) }
        }
        return removed
    }

    /// Removes and returns the most urgent caller that can hand the request's outcome out (see
    /// ``DownloadCaller/delivers``), so that the work runs at its priority; nil when none can.
    func removeDeliverer() -> DownloadCaller? {
        let chosen = callers.lazy.filter { $0.value.delivers }.max { $0.value.priority < $1.value.priority }
        deliverer = chosen.flatMap { removeCaller($0.key) }
        return deliverer
    }

    /// Removes and returns every caller; a deliverer already chosen is told that its own load
    /// is cancelled.
    func removeAllCallers() -> [DownloadCaller] {
        defer {
            callers.removeAll()
            priority = .low
        }
        deliverer?.cancelOwnLoad()
        return Array(callers.values)
    }

    /// The event handlers of the callers due a progress event for `received` bytes at `now`,
    /// marked as served.
    func progressHandlers(received: Int, expected: Int?, now: ContinuousClock.Instant) -> [ImageLoadingEventHandler] {
        callers.values.compactMap { caller in
            guard let events = caller.events, caller.admitProgress(received: received, expected: expected, now: now)
            else { return nil }
            return events
        }
    }

    /// This record's entry in the ``DownloadQueue``, at its priority now.
    var queueEntry: DownloadQueue.Entry {
        DownloadQueue.Entry(operation: request.operation, priority: priority)
    }

    /// Records one round of the idle watchdog; returns whether the request has now gone
    /// `rounds` rounds in a row without progress, or run for `wholeRounds` rounds in all.
    func watchdogRound(timingOutAfter rounds: Int, orAfterRounds wholeRounds: Int? = nil) -> Bool {
        roundsWatched += 1
        // The first round comes anywhere within a round of the start: one more makes sure the
        // whole limit has passed.
        if let wholeRounds, roundsWatched > wholeRounds { return true }
        let activity = request.activityCount
        if activitySeen == activity {
            quietRounds += 1
        } else {
            activitySeen = activity
            quietRounds = 0
        }
        return quietRounds >= rounds
    }
}
