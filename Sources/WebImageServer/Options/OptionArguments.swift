import Foundation

/// The `:`-separated arguments of one option, read with the checks imgproxy applies: integers
/// and decimals in range, Go-style booleans, at most a given number of arguments.
struct OptionArguments {
    /// The option's long name, for error messages.
    let option: String
    /// The arguments as written (still URL text).
    let values: [Substring]

    /// Whether argument `index` is present and not empty (meta-options keep a default for an empty one).
    func has(_ index: Int) -> Bool {
        index < values.count && !values[index].isEmpty
    }

    /// Throws unless there are between `minimum` and `maximum` arguments.
    func expectCount(_ minimum: Int, _ maximum: Int) throws(ProcessingURLError) {
        guard values.count >= minimum else { throw fail("needs at least \(minimum) argument(s)") }
        guard values.count <= maximum else { throw fail("takes at most \(maximum) argument(s)") }
    }

    /// Argument `index` as a whole number in `range`.
    func integer(_ index: Int, in range: ClosedRange<Int>, digits: Int = 12) throws(ProcessingURLError) -> Int {
        let text = values[index]
        guard !text.isEmpty, text.count <= digits, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 || $0 == 0x2D }),
              let value = Int(text) else {
            throw fail("\"\(ProcessingURLError.quoting(text))\" is not an integer")
        }
        guard range.contains(value) else { throw fail("\(value) is outside \(range.lowerBound)…\(range.upperBound)") }
        return value
    }

    /// Argument `index` as a finite decimal in `range` (no exponent, no `inf` or `nan`).
    func decimal(_ index: Int, in range: ClosedRange<Double>) throws(ProcessingURLError) -> Double {
        let text = values[index]
        guard !text.isEmpty, text.count <= 24,
              text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 || $0 == 0x2E || $0 == 0x2D }),
              let value = Double(text), value.isFinite else {
            throw fail("\"\(ProcessingURLError.quoting(text))\" is not a number")
        }
        guard range.contains(value) else {
            throw fail("\(CanonicalNumber.spell(value)) is outside \(CanonicalNumber.spell(range.lowerBound))…"
                + CanonicalNumber.spell(range.upperBound))
        }
        return value
    }

    /// Argument `index` as a boolean spelled as Go's `strconv.ParseBool` accepts it, as imgproxy does.
    func boolean(_ index: Int) throws(ProcessingURLError) -> Bool {
        switch values[index] {
        case "1", "t", "T", "true", "TRUE", "True": return true
        case "0", "f", "F", "false", "FALSE", "False": return false
        default: throw fail("\"\(ProcessingURLError.quoting(values[index]))\" is not a boolean")
        }
    }

    /// Argument `index` as text, percent-decoded, at most `maxLength` bytes.
    func text(_ index: Int, maxLength: Int = 255) throws(ProcessingURLError) -> String {
        let raw = String(values[index])
        guard let decoded = raw.removingPercentEncoding, decoded.utf8.count <= maxLength else {
            throw fail("not valid percent-encoded text of at most \(maxLength) bytes")
        }
        return decoded
    }

    /// Argument `index` as the case of `Choice` it spells (its raw value), else a failure saying
    /// what it must be (`expected`).
    func choice<Choice: RawRepresentable<String>>(_ index: Int, _ expected: String) throws(ProcessingURLError) -> Choice {
        guard let value = Choice(rawValue: String(values[index])) else { throw fail(expected) }
        return value
    }

    /// An ``ProcessingURLError/invalidArgument(option:reason:)`` for this option.
    func fail(_ reason: String) -> ProcessingURLError {
        .invalidArgument(option: option, reason: reason)
    }
}
