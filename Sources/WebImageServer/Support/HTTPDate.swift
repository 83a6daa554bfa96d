#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// HTTP's date format (RFC 9110's IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`), for
/// `Last-Modified` and `If-Modified-Since`, without a `DateFormatter` per request.
enum HTTPDate {
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `date` in IMF-fixdate, to the second.
    static func string(from date: Date) -> String {
        var time = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(weekdays[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(1900 + parts.tm_year) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    /// The date an IMF-fixdate names, or nil for anything else (the obsolete formats included:
    /// a client sends back the `Last-Modified` it was given, which is always IMF-fixdate).
    static func date(from text: String) -> Date? {
        let fields = text.split(separator: " ")
        guard fields.count == 6, fields[0].count == 4, fields[0].hasSuffix(","), fields[5] == "GMT",
              let day = Int32(fields[1]), (1...31).contains(day),
              let month = months.firstIndex(of: String(fields[2])),
              let year = Int32(fields[3]), (1900...9999).contains(year)
        else { return nil }
        let clock = fields[4].split(separator: ":", omittingEmptySubsequences: false).compactMap { Int32($0) }
        guard clock.count == 3, (0...23).contains(clock[0]), (0...59).contains(clock[1]), (0...60).contains(clock[2]) else {
            return nil
        }
        var parts = tm()
        parts.tm_year = year - 1900
        parts.tm_mon = Int32(month)
        parts.tm_mday = day
        parts.tm_hour = clock[0]
        parts.tm_min = clock[1]
        parts.tm_sec = clock[2]
        return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
    }
}
