/// The downloader's queue and bookkeeping, as a value guarded by the downloader's lock: which
/// requests exist, who waits on each, which may start. It does no I/O and calls no callbacks;
/// the downloader does both outside the lock with what these methods return.
struct DownloadScheduler {
    let maxConcurrent: Int
    var isSuspended = false
    private(set) var isShutDown = false
    private(set) var records: [UInt64: DownloadOperationRecord] = [:]
    /// The request that new callers of a key join; a request leaves this map once its last
    /// caller cancels or it completes.
    private var joinable: [DownloadKey: UInt64] = [:]
    /// Requests holding a slot.
    private(set) var runningCount = 0
    /// The requests being handed out that freed their slot when their exchange ended, and the
    /// bytes of their bodies; within ``handingOutLimits``.
    private var handingOut = (count: 0, bytes: 0)
    /// How many requests, and how many bytes of bodies, may be handed out with their slot
    /// freed. The bytes bound the bodies that wait in memory for their decode when they arrive
    /// faster than they are decoded (large images); the count bounds how deep a chain of
    /// exchanges refused at once can nest (see ``HTTPImageDownloader/complete(_:with:)``).
    static let handingOutLimits = (count: 64, bytes: 2 << 20)
    /// The queued requests in start order; its entries for requests that are no longer queued,
    /// or queued at another priority now, are stale (``nextQueued()`` skips them).
    private var queue: DownloadQueue
    private var nextID: UInt64 = 1

    /// A scheduler that runs up to `maxConcurrent` requests in `order`.
    init(maxConcurrent: Int, order: DownloadExecutionOrder) {
        self.maxConcurrent = max(1, maxConcurrent)
        queue = DownloadQueue(order: order)
    }

    /// Adds `caller` to the request for `key`, creating a queued request when none is joinable.
    /// Returns the request's and the caller's identifiers.
    mutating func add(_ caller: DownloadCaller, key: DownloadKey, options: ImageLoaderOptions)
        -> (operation: UInt64, caller: UInt64)
    {
        let callerID = makeID()
        // One hash of the key (a URL's whole string) finds the joinable request or claims the
        // key for a new one.
        let candidate = nextID
        let operation = Self.claim(&joinable[key, default: candidate])
        if operation != candidate, let record = records[operation] {
            let priority = record.priority
            record.addCaller(caller, id: callerID)
            requeueIfPriorityChanged(record, from: priority)
            return (operation, callerID)
        }
        if operation != candidate { joinable[key] = candidate }
        let created = makeID()
        let record = DownloadOperationRecord(DownloadRequest(operation: created, key: key, options: options))
        record.addCaller(caller, id: callerID)
        records[created] = record
        queue.insert(record.queueEntry)
        return (created, callerID)
    }

    /// Removes a caller that cancels. Returns it (nil when it had completed already) and, when
    /// it was the last caller of a started request, the request to cancel. A queued request
    /// without callers is dropped at once; a started one stays until its outcome is handed out.
    mutating func removeCaller(_ callerID: UInt64, of operation: UInt64)
        -> (caller: DownloadCaller?, requestToCancel: DownloadRequest?)
    {
        guard let record = records[operation] else { return (nil, nil) }
        let priority = record.priority
        guard let caller = record.removeCaller(callerID) else { return (nil, nil) }
        guard record.callers.isEmpty else {
            requeueIfPriorityChanged(record, from: priority)
            return (caller, nil)
        }
        forgetJoinable(record.request.key, of: operation)
        if record.phase == .queued {
            records.removeValue(forKey: operation)
            return (caller, nil)
        }
        return (caller, record.request)
    }

    /// Marks the requests that may start now as running and returns them, most urgent first:
    /// none while suspended or shut down, and never more than ``maxConcurrent`` at once.
    mutating func takeStartable() -> [DownloadRequest] {
        guard !isSuspended, !isShutDown else { return [] }
        var started: [DownloadRequest] = []
        while runningCount < maxConcurrent, let record = nextQueued() {
            record.phase = .running
            record.holdsSlot = true
            runningCount += 1
            started.append(record.request)
        }
        return started
    }

    /// The idle watchdog's task while it runs; it ends itself when no request is running.
    private(set) var watchdog: Task<Void, Never>?

    /// Whether a request runs and no watchdog watches it.
    var needsWatchdog: Bool { watchdog == nil && runningCount > 0 && !isShutDown }

    /// Keeps the task of the watchdog just started.
    mutating func setWatchdog(_ task: Task<Void, Never>) {
        watchdog = task
    }

    /// Forgets the watchdog and returns its task, to cancel (at shutdown).
    mutating func takeWatchdog() -> Task<Void, Never>? {
        defer { watchdog = nil }
        return watchdog
    }

    /// One round of the watchdog: marks the running requests that made no progress for
    /// `rounds` rounds in a row, or ran for `wholeRounds` rounds in all, as timed out and
    /// returns them, to cancel. When no request is
    /// running any more, the watchdog is forgotten and `keepWatching` is false. Only one
    /// watchdog may call this (see ``needsWatchdog``): each call counts as a round.
    mutating func timeOutRequests(afterQuietRounds rounds: Int, orRounds wholeRounds: Int? = nil)
        -> (requests: [DownloadRequest], keepWatching: Bool) {
        var silent: [DownloadRequest] = []
        var running = false
        for record in records.values where record.phase == .running && !record.timedOut {
            running = true
            if record.watchdogRound(timingOutAfter: rounds, orAfterRounds: wholeRounds) {
                record.timedOut = true
                silent.append(record.request)
            }
        }
        if !running { watchdog = nil }
        return (silent, running)
    }

    /// Whether the idle watchdog cancelled `operation`.
    func timedOut(_ operation: UInt64) -> Bool {
        records[operation]?.timedOut ?? false
    }

    /// The exchange of `operation` has ended with a body of `bytes`, and its outcome is handed
    /// out. It frees its slot now, so that the next download overlaps its decode, unless that
    /// would take the requests handed out with their slot freed over ``handingOutLimits``: then
    /// it keeps the slot until it finishes (``finish(_:)``), as SDWebImage's operation ends only
    /// after decoding, so that bodies arriving faster than they are decoded wait on the server,
    /// not in memory.
    mutating func exchangeEnded(_ operation: UInt64, bytes: Int) {
        guard let record = records[operation] else { return }
        record.phase = .decoding
        let limits = Self.handingOutLimits
        guard handingOut.count < limits.count, handingOut.bytes + bytes <= limits.bytes else { return }
        handingOut = (handingOut.count + 1, handingOut.bytes + bytes)
        record.bytesHandedOutWithoutSlot = bytes
        releaseSlot(of: operation)
    }

    /// Removes and returns a caller of `operation` that can hand its outcome out (see
    /// ``DownloadCaller/delivers``); nil when none can.
    mutating func takeDeliverer(of operation: UInt64) -> DownloadCaller? {
        records[operation]?.removeDeliverer()
    }

    /// Ends `operation` and returns the callers still waiting on it, who must be completed.
    mutating func finish(_ operation: UInt64) -> [DownloadCaller] {
        releaseSlot(of: operation)
        guard let record = records.removeValue(forKey: operation) else { return [] }
        if let bytes = record.bytesHandedOutWithoutSlot { handingOut = (handingOut.count - 1, handingOut.bytes - bytes) }
        forgetJoinable(record.request.key, of: operation)
        return Array(record.callers.values)
    }

    /// The value read through the `_modify` accessor it is passed by: one hash lookup that
    /// inserts the default when the key is absent.
    private static func claim(_ operation: inout UInt64) -> UInt64 {
        operation
    }

    /// Removes `key` from ``joinable`` when `operation` is the request it names, with one hash.
    private mutating func forgetJoinable(_ key: DownloadKey, of operation: UInt64) {
        if let index = joinable.index(forKey: key), joinable.values[index] == operation {
            joinable.remove(at: index)
        }
    }

    /// Removes every caller of every request (for cancel-all and shutdown). Returns the callers,
    /// who must be completed, and the started requests, which must be cancelled.
    mutating func removeAllCallers(shuttingDown: Bool) -> (callers: [DownloadCaller], requests: [DownloadRequest]) {
        if shuttingDown { isShutDown = true }
        var callers: [DownloadCaller] = []
        var started: [DownloadRequest] = []
        for (operation, record) in records {
            callers.append(contentsOf: record.removeAllCallers())
            if record.phase == .queued {
                records.removeValue(forKey: operation)
            } else {
                started.append(record.request)
            }
        }
        joinable.removeAll()
        queue.removeAll()
        return (callers, started)
    }

    /// The event handlers of the callers of `operation` due a progress event for `received`
    /// bytes at `now`.
    func progressHandlers(of operation: UInt64, received: Int, expected: Int?,
                                   now: ContinuousClock.Instant) -> [ImageLoadingEventHandler] {
        records[operation]?.progressHandlers(received: received, expected: expected, now: now) ?? []
    }

    /// The callers of `operation` that asked for partial images.
    func progressiveCallers(of operation: UInt64) -> [DownloadCaller] {
        records[operation]?.callers.values.filter { $0.progressive && $0.events != nil } ?? []
    }

    /// The callers of `operation` that want a decode whose key is not in `done`; when there are
    /// none, `operation` ends and its callers come back as `finished`, to complete.
    mutating func undecodedCallers(of operation: UInt64, notIn done: [DownloadCaller.DecodeKey])
        -> (undecoded: [DownloadCaller], finished: [DownloadCaller]?)
    {
        func undecoded(_ caller: DownloadCaller) -> Bool { caller.decodeKey.map { !done.contains($0) } ?? false }
        // Usually every caller shares the first decode: then no list of undecoded callers is made.
        guard let callers = records[operation]?.callers.values, callers.contains(where: undecoded)
        else { return ([], finish(operation)) }
        return (callers.filter(undecoded), nil)
    }

    private mutating func releaseSlot(of operation: UInt64) {
        guard let record = records[operation], record.holdsSlot else { return }
        record.holdsSlot = false
        runningCount -= 1
    }

    /// The queued request to start next: the highest priority, then the oldest (FIFO) or the
    /// newest (LIFO). Removes it, and the stale entries above it, from ``queue``.
    private mutating func nextQueued() -> DownloadOperationRecord? {
        while let entry = queue.popFirst() {
            guard let record = records[entry.operation], record.phase == .queued,
                  record.priority == entry.priority else { continue }
            return record
        }
        return nil
    }

    /// Queues `record` again at its new priority when a caller who joined or left changed
    /// it; the entry at the old priority goes stale.
    private mutating func requeueIfPriorityChanged(_ record: DownloadOperationRecord, from old: DownloadPriority) {
        guard record.phase == .queued, record.priority != old else { return }
        queue.insert(record.queueEntry)
    }

    private mutating func makeID() -> UInt64 {
        defer { nextID += 1 }
        return nextID
    }
}
