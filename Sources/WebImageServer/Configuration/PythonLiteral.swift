/// A value a `thumbor.conf` assigns: the literals of Python that thumbor's settings take, and
/// `re.compile(…)` of a string, which thumbor's `ALLOWED_SOURCES` takes.
public indirect enum PythonLiteral: Sendable, Equatable {
    /// `None`.
    case none
    /// `True` or `False`.
    case boolean(Bool)
    /// A whole number.
    case integer(Int)
    /// A number with a fraction or an exponent (`75e6`).
    case float(Double)
    /// A string, its escapes read.
    case string(String)
    /// `[…]`.
    case list([PythonLiteral])
    /// `(…)`, with a comma.
    case tuple([PythonLiteral])
    /// `{…}`, its pairs in the order written.
    case dict([DictEntry])
    /// `re.compile('PATTERN')`: a regular expression, matched from a URL's start.
    case pattern(String)

    /// One `key: value` pair of a ``PythonLiteral/dict(_:)``.
    public struct DictEntry: Sendable, Equatable {
        /// The key.
        public let key: PythonLiteral
        /// Its value.
        public let value: PythonLiteral
    }

    /// The items of a list or a tuple, or nil for any other value.
    public var items: [PythonLiteral]? {
        switch self {
        case .list(let items), .tuple(let items): items
        default: nil
        }
    }

    /// The literal as a setting's text reads it — a string as it is, a truth value as
    /// `true`/`false`, a number in digits, the items of a list or a tuple joined by `separator`
    /// — or nil for `None`, which leaves the setting as it was; throws for a dict, a pattern, or a
    /// list holding either, which no setting reads as text.
    func settingText(joinedBy separator: String = ",") throws(SettingValueError) -> String? {
        switch self {
        case .none: return nil
        case .boolean(let value): return String(value)
        case .integer(let value): return String(value)
        case .float(let value): return value.plainText
        case .string(let value): return value
        case .list, .tuple:
            var texts: [String] = []
            for item in items ?? [] {
                guard let text = try item.settingText(), item.items == nil else {
                    throw SettingValueError(reason: "holds \(item.described), where a string or a number was expected")
                }
                texts.append(text)
            }
            return texts.joined(separator: separator)
        case .dict, .pattern:
            throw SettingValueError(reason: "is \(described), where a string, a number or a list was expected")
        }
    }

    /// A few words for the literal's kind, for an error.
    var described: String {
        switch self {
        case .none: "None"
        case .boolean(let value): value ? "True" : "False"
        case .integer, .float: "a number"
        case .string: "a string"
        case .list: "a list"
        case .tuple: "a tuple"
        case .dict: "a dict"
        case .pattern: "a compiled pattern"
        }
    }

    /// The literal as Python writes it, for the defaults a table shows.
    public var pythonText: String {
        switch self {
        case .none: "None"
        case .boolean(let value): value ? "True" : "False"
        case .integer(let value): String(value)
        case .float(let value): String(value)
        case .string(let value): "'" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
        case .list(let items): "[" + items.map(\.pythonText).joined(separator: ", ") + "]"
        case .tuple(let items): "(" + items.map(\.pythonText).joined(separator: ", ") + (items.count == 1 ? ",)" : ")")
        case .dict(let entries): "{" + entries.map { "\($0.key.pythonText): \($0.value.pythonText)" }.joined(separator: ", ") + "}"
        case .pattern(let pattern): "re.compile(\(PythonLiteral.string(pattern).pythonText))"
        }
    }

    /// Whether `other` is the same value as Python compares them: `1 == 1.0`, `True == 1`, a
    /// list never equal to a tuple.
    func isPythonEqual(to other: PythonLiteral) -> Bool {
        switch (self.number, other.number) {
        case (let a?, let b?): return a == b
        default: break
        }
        switch (self, other) {
        case (.list(let a), .list(let b)), (.tuple(let a), .tuple(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.isPythonEqual(to: $1) }
        default:
            return self == other
        }
    }

    /// The value of a number or a truth value, as Python compares them.
    private var number: Double? {
        switch self {
        case .boolean(let value): value ? 1 : 0
        case .integer(let value): Double(value)
        case .float(let value): value
        default: nil
        }
    }
}
