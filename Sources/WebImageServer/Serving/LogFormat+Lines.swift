import Foundation
import Logging

/// The lines of each ``LogFormat``, as ``BufferedLogHandler`` writes them.
extension LogFormat {
    /// The line `event` is written as (without the time prefix ``LogLineBuffer`` gives pretty
    /// lines), with `metadata` as its merged metadata and `label` its logger's.
    func line(for event: LogEvent, metadata: Logger.Metadata, label: String) -> String {
        var line = ""
        line.reserveCapacity(256)
        let sorted = metadata.sorted { $0.key < $1.key }
        switch self {
        case .pretty:
            line += event.level.rawValue
            line += " "
            line += label
            line += ":"
            for (key, value) in sorted {
                line += " "
                line += key
                line += "="
                line += value.description
            }
            line += " ["
            line += event.source
            line += "] "
            line += event.message.description
        case .structured:
            line += "time="
            line += Self.utcTime(time(nil))
            line += " level="
            line += Self.levelName(event.level)
            line += " msg="
            Self.appendLogfmt(event.message.description, to: &line)
            for (key, value) in sorted {
                line += " "
                Self.appendLogfmt(key, to: &line)
                line += "="
                Self.appendLogfmt(value.description, to: &line)
            }
        case .json, .gcp:
            line += "{\"time\":\""
            line += Self.utcTime(time(nil))
            line += self == .gcp ? "\",\"severity\":\"" : "\",\"level\":\""
            line += Self.levelName(event.level)
            line += self == .gcp ? "\",\"message\":" : "\",\"msg\":"
            Self.appendJSONString(event.message.description, to: &line)
            for (key, value) in sorted {
                line += ","
                Self.appendJSONString(key, to: &line)
                line += ":"
                Self.appendJSON(value, to: &line)
            }
            line += "}"
        }
        return line
    }

    /// imgproxy's name of `level`: swift-log's trace counts as debug and notice as info.
    static func levelName(_ level: Logger.Level) -> String {
        switch level {
        case .trace, .debug: "DEBUG"
        case .info, .notice: "INFO"
        case .warning: "WARNING"
        case .error: "ERROR"
        case .critical: "CRITICAL"
        }
    }

    /// `seconds` since 1970 as RFC 3339 in UTC, `2026-12-02T19:26:50Z`.
    static func utcTime(_ seconds: time_t) -> String {
        var seconds = seconds
        var utc = tm()
        guard gmtime_r(&seconds, &utc) != nil else { return "1970-01-01T00:00:00Z" }
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(utc.tm_year + 1900)-\(two(utc.tm_mon + 1))-\(two(utc.tm_mday))T\(two(utc.tm_hour)):\(two(utc.tm_min)):\(two(utc.tm_sec))Z"
    }

    /// `text` as a logfmt value: bare when it can be, else quoted with `"` and `\` escaped and
    /// control characters as `\n`, `\t` or `\u00XX`.
    static func appendLogfmt(_ text: String, to line: inout String) {
        let needsQuotes = text.isEmpty || text.unicodeScalars.contains { scalar in
            scalar == " " || scalar == "=" || scalar == "\"" || scalar == "\\" || scalar.value < 0x20 || scalar.value == 0x7F
        }
        guard needsQuotes else {
            line += text
            return
        }
        appendJSONString(text, to: &line)
    }

    /// `text` as a JSON string, quoted and escaped (RFC 8259).
    static func appendJSONString(_ text: String, to line: inout String) {
        line += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": line += "\\\""
            case "\\": line += "\\\\"
            case "\n": line += "\\n"
            case "\r": line += "\\r"
            case "\t": line += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                line += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: line.unicodeScalars.append(scalar)
            }
        }
        line += "\""
    }

    /// `value` as JSON: numbers and booleans given as such stay numbers and booleans, lists
    /// arrays and dictionaries objects; everything else is a string.
    static func appendJSON(_ value: Logger.MetadataValue, to line: inout String) {
        switch value {
        case .string(let text):
            appendJSONString(text, to: &line)
        case .stringConvertible(let convertible):
            switch convertible {
            case let number as any BinaryInteger: line += number.description
            case let number as Double where number.isFinite: line += number.description
            case let flag as Bool: line += flag ? "true" : "false"
            default: appendJSONString(convertible.description, to: &line)
            }
        case .array(let values):
            line += "["
            for (index, element) in values.enumerated() {
                if index > 0 { line += "," }
                appendJSON(element, to: &line)
            }
            line += "]"
        case .dictionary(let entries):
            line += "{"
            for (index, entry) in entries.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { line += "," }
                appendJSONString(entry.key, to: &line)
                line += ":"
                appendJSON(entry.value, to: &line)
            }
            line += "}"
        }
    }
}
