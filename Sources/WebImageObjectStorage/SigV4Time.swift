import Foundation

/// A signing time as Signature Version 4 writes it, in UTC: `20150830T123600Z` and its day `20150830`.
struct SigV4Time: Sendable {
    /// `YYYYMMDD'T'HHMMSS'Z'`, the `X-Amz-Date` field.
    let stamp: String
    /// `YYYYMMDD`, the scope's day.
    let day: String

    /// `date`, to the second.
    init(_ date: Date) {
        let components = Self.calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String {
            let value = value ?? 0
            return value < 10 ? "0\(value)" : String(value)
        }
        let year = String(components.year ?? 1970)
        day = String(repeating: "0", count: max(0, 4 - year.count)) + year + two(components.month) + two(components.day)
        stamp = day + "T" + two(components.hour) + two(components.minute) + two(components.second) + "Z"
    }

    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        return calendar
    }()
}
