import Foundation

/// How long caches may keep a result, as its source's origin said of the source
/// (`--cache-control-passthrough`, imgproxy's `IMGPROXY_CACHE_CONTROL_PASSTHROUGH`): answered in
/// place of the server's own `Cache-Control`, and kept with the result's copies in memory and on
/// the local disk.
public enum ResultLifetime: Sendable, Hashable {
    /// The origin's `Cache-Control`, passed on as it came.
    case cacheControl(String)
    /// The origin's `Expires`, with no `Cache-Control`: answered as `max-age` of the seconds
    /// left (none once past), `public`, and never as `Expires`.
    case expires(Date)

    /// The lifetime an origin's `cacheControl` and `expires` fields give, `Cache-Control`
    /// first; nil when it sent neither (or only an `Expires` that is no HTTP date). A field's
    /// text keeps printable ASCII only, at most 256 characters of it.
    init?(cacheControl: String?, expires: String?) {
        if let cacheControl {
            let printable = String(String.UnicodeScalarView(cacheControl.unicodeScalars.filter { (0x20...0x7E).contains($0.value) }.prefix(256)))
            let trimmed = printable.trimmingCharacters(in: .whitespaces)
            if !trimmed.isEmpty {
                self = .cacheControl(trimmed)
                return
            }
        }
        guard let date = expires.flatMap(HTTPDate.date(from:)) else { return nil }
        self = .expires(date)
    }

    /// The `Cache-Control` field's value at `now`.
    func fieldValue(at now: Date) -> String {
        switch self {
        case let .cacheControl(value): value
        case let .expires(date): "max-age=\(max(0, Int(date.timeIntervalSince(now).rounded(.down)))), public"
        }
    }

    /// The line a result's disk copy keeps it as: `cache-control: VALUE` or `expires: SECONDS`.
    var storedText: String {
        switch self {
        case let .cacheControl(value): "cache-control: " + value
        case let .expires(date): "expires: " + String(Int(date.timeIntervalSince1970))
        }
    }

    /// The lifetime a disk copy's line keeps, or nil when the line is not one.
    init?(storedText text: Substring) {
        if let value = text.cutPrefix("cache-control: "), !value.isEmpty {
            self = .cacheControl(String(value))
        } else if let seconds = text.cutPrefix("expires: ").flatMap({ TimeInterval($0) }) {
            self = .expires(Date(timeIntervalSince1970: seconds))
        } else {
            return nil
        }
    }
}

private extension Substring {
    /// What follows `prefix`, or nil when the text does not start with it.
    func cutPrefix(_ prefix: String) -> Substring? {
        hasPrefix(prefix) ? dropFirst(prefix.count) : nil
    }
}
