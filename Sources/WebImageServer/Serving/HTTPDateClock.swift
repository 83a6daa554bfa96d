#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Locking

/// The current time as an HTTP date (the `Date` field every response carries), formatted once a
/// second rather than once a response.
final class HTTPDateClock: Sendable {
    private let last = Mutex<(second: time_t, text: String)>((-1, ""))

    /// A clock that has not formatted anything yet.
    init() {}

    /// Now, in IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`).
    var now: String {
        let second = time(nil)
        return last.withLock { last in
            if last.second != second {
                last = (second, HTTPDate.string(from: Date(timeIntervalSince1970: TimeInterval(second))))
            }
            return last.text
        }
    }
}
