import Foundation
import Logging

/// How a setting's text is read, the same from a variable and from a flag.
enum SettingText {
    /// A whole number in `range`.
    static func integer(_ text: String, in range: ClosedRange<Int>) throws(SettingValueError) -> Int {
        guard let value = Int(text) else { throw SettingValueError(reason: "is not a whole number") }
        guard range.contains(value) else {
            throw SettingValueError(reason: "is outside \(range.lowerBound)…\(range.upperBound)")
        }
        return value
    }

    /// A finite number in `range`.
    static func decimal(_ text: String, in range: ClosedRange<Double>) throws(SettingValueError) -> Double {
        guard let value = Double(text), value.isFinite else { throw SettingValueError(reason: "is not a number") }
        guard range.contains(value) else {
            throw SettingValueError(reason: "is outside \(range.lowerBound.plainText)…\(range.upperBound.plainText)")
        }
        return value
    }

    /// A boolean, spelled as imgproxy (Go's `ParseBool`) takes it: `true`, `1`, `t`, `false`, `0`, `f`…
    static func boolean(_ text: String) throws(SettingValueError) -> Bool {
        switch text {
        case "1", "t", "T", "true", "TRUE", "True": return true
        case "0", "f", "F", "false", "FALSE", "False": return false
        default: throw SettingValueError(reason: "is not true or false")
        }
    }

    /// A log level as imgproxy names them (`debug`, `info`, `warn`, `error`), `warning` too.
    static func logLevel(_ text: String) throws(SettingValueError) -> Logger.Level {
        switch text.lowercased() {
        case "debug": return .debug
        case "info": return .info
        case "warn", "warning": return .warning
        case "error": return .error
        default: throw SettingValueError(reason: "is not debug, info, warn or error")
        }
    }

    /// An RFC 3339 date and time with its offset (`2026-01-01T00:00:00Z`, fractions of a
    /// second allowed), as imgproxy reads its date settings.
    static func date(_ text: String) throws(SettingValueError) -> Date {
        let whole = ISO8601DateFormatter()
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        guard let date = whole.date(from: text) ?? fractional.date(from: text) else {
            throw SettingValueError(reason: "is not an RFC 3339 time such as 2026-01-01T00:00:00Z")
        }
        return date
    }

    /// Comma-separated values, each trimmed, empty ones dropped.
    static func list(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The presets of the file at `path`, one a line, blank lines and lines starting with `#`
    /// skipped (imgproxy's `IMGPROXY_PRESETS_PATH` and `IMGPROXY_INFO_PRESETS_PATH`).
    static func presetLines(inFile path: String) throws(SettingValueError) -> [String] {
        guard let contents = FileManager.default.contents(atPath: path), let lines = String(data: contents, encoding: .utf8) else {
            throw SettingValueError(reason: "names no readable UTF-8 file")
        }
        return lines.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    /// `127.0.0.1:8080`, `[::1]:8080`, `:8080` (all addresses) as a host and a port.
    static func address(_ text: String) throws(SettingValueError) -> (host: String, port: Int) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
              (0...65535).contains(port) else {
            throw SettingValueError(reason: "is not HOST:PORT")
        }
        let host = text[..<colon].trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return (host.isEmpty ? "0.0.0.0" : host, port)
    }
}

extension Double {
    /// `50`, `0.1`: the number without a fraction when it has none.
    var plainText: String {
        self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self)
    }
}
