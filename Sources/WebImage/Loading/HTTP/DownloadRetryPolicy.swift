import Foundation

/// When and how soon a failed download is tried again (SDWebImage's most asked-for missing
/// feature): after a connection error or a time-out, or a status in ``retriedStatusCodes`` (5xx
/// and 429 by default), never after another 4xx, a bad body or a cancellation; at most
/// ``maxRetries`` times, each wait growing by ``multiplier`` from ``initialDelay`` up to
/// ``maxDelay``, less up to ``jitter`` of it at random so that clients failed together do not
/// come back together, or as long as the answer's `Retry-After` asks (up to ``maxDelay``).
///
/// A retried download stays one download for every caller that joined it; cancelling it (every
/// caller gone) stops the wait; the manager's failed-URL list sees only the last outcome.
public struct DownloadRetryPolicy: Sendable, Hashable {
    /// Tries after the first; 0 tries once.
    public var maxRetries: Int
    /// Seconds before the first retry.
    public var initialDelay: TimeInterval
    /// The most seconds before any retry, `Retry-After`'s included.
    public var maxDelay: TimeInterval
    /// How much longer each wait is than the one before.
    public var multiplier: Double
    /// The share of each wait (0…1) that may be taken off at random.
    public var jitter: Double
    /// The statuses retried: 500–599 and 429 by default.
    public var retriedStatusCodes: Set<Int>

    /// A policy with the given values; every argument has the default described on its property.
    public init(maxRetries: Int = 2, initialDelay: TimeInterval = 0.5, maxDelay: TimeInterval = 30, multiplier: Double = 2,
                jitter: Double = 0.5, retriedStatusCodes: Set<Int> = Set(500...599).union([429])) {
        self.maxRetries = maxRetries
        self.initialDelay = initialDelay
        self.maxDelay = maxDelay
        self.multiplier = multiplier
        self.jitter = jitter
        self.retriedStatusCodes = retriedStatusCodes
    }

    /// Whether a download that failed with `error` is tried again.
    public func retries(_ error: WebImageError) -> Bool {
        switch error {
        case .network(let failure): failure.reason.isTransient
        case .timedOut: true
        case .badStatusCode(let status): retriedStatusCodes.contains(status)
        default: false
        }
    }

    /// Seconds to wait before retry `retry` (1 for the first), given the failed answer's
    /// `Retry-After` (seconds, or an HTTP date compared with `now`) and a `random` number in 0…1.
    public func delay(beforeRetry retry: Int, retryAfter: String? = nil, now: Date = Date(),
                      random: Double = Double.random(in: 0...1)) -> TimeInterval {
        if let asked = retryAfter.flatMap({ Self.seconds(retryAfter: $0, now: now) }) { return min(max(0, asked), maxDelay) }
        let grown = initialDelay * pow(multiplier, Double(max(0, retry - 1)))
        let capped = min(grown, maxDelay)
        return max(0, capped * (1 - min(max(jitter, 0), 1) * min(max(random, 0), 1)))
    }

    /// The seconds a `Retry-After` value asks for: a count of seconds, or an HTTP date.
    static func seconds(retryAfter value: String, now: Date) -> TimeInterval? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(text), seconds >= 0 { return TimeInterval(seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text).map { $0.timeIntervalSince(now) }
    }
}
