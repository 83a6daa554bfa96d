/// One caller waiting on a shared download: what it wants decoded and where its events go.
struct DownloadCaller: Sendable {
    /// Callers with equal decode keys share one decode of the finished bytes.
    struct DecodeKey: Hashable {
        var options: ImageDecodeOptions
        var coders: ObjectIdentifier
    }

    let priority: DownloadPriority
    let decodeOptions: ImageDecodeOptions
    let coders: ImageCoders
    let progressive: Bool
    let progressInterval: Duration
    let events: ImageLoadingEventHandler?
    let completion: @Sendable (Result<ImageLoadResult, WebImageError>) -> Void
    /// When this caller last got a progress event, for ``progressInterval``.
    var lastProgressTime: ContinuousClock.Instant?
    /// The received count of the last progress event delivered to this caller; -1 before any.
    var lastReceivedBytes = -1

    init(options: ImageLoaderOptions, events: ImageLoadingEventHandler?,
         completion: @escaping @Sendable (Result<ImageLoadResult, WebImageError>) -> Void) {
        priority = options.priority
        decodeOptions = options.decodeOptions
        coders = options.coders
        progressive = options.progressive
        progressInterval = options.progressInterval
        self.events = events
        self.completion = completion
    }

    var decodeKey: DecodeKey { DecodeKey(options: decodeOptions, coders: ObjectIdentifier(coders)) }

    /// Whether a progress event for `received` bytes should go to this caller at `now`: the
    /// first, the last (`received == expected`), and otherwise no more often than ``progressInterval``.
    mutating func admitProgress(received: Int, expected: Int?, now: ContinuousClock.Instant) -> Bool {
        guard received > lastReceivedBytes else { return false }
        let due = lastProgressTime.map { now - $0 >= progressInterval } ?? true
        guard due || received == expected else { return false }
        lastProgressTime = now
        lastReceivedBytes = received
        return true
    }
}
