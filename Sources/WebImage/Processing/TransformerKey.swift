import Foundation

/// How transformer keys spell their parameters, so every key reads the same way and stays
/// stable across runs: numbers in their shortest form, colours as `#RRGGBBAA`.
enum TransformerKey {
    /// `16` for 16.0, `2.5` for 2.5; six significant digits at most.
    static func number(_ value: Double) -> String {
        String(format: "%g", value)
    }

    /// `#RRGGBBAA` in upper-case hexadecimal.
    static func colour(_ colour: RGBA) -> String {
        String(format: "#%02X%02X%02X%02X", colour.r, colour.g, colour.b, colour.a)
    }
}
