import Foundation

/// How canonical cache keys spell a number: `3` for 3.0, `0.25` for 0.25, so that equal values
/// written differently in URLs (`1`, `1.0`, `01`) share a key.
enum CanonicalNumber {
    /// The shortest round-tripping decimal of `value`.
    static func spell(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
