/// Reads the statements a `thumbor.conf` may hold (see ``ThumborConfigFile``), one character
/// at a time: Python's tokens as far as literals need them, brackets letting a value go on over
/// lines, `\` at a line's end too.
struct PythonLiteralReader {
    /// Why the text is not a file of literal assignments, and on which line.
    struct Failure: Error {
        let line: Int
        let reason: String
    }

    private let characters: [Character]
    private var index = 0
    private var line = 1
    /// Brackets open around the reading position: inside them, line ends are spaces.
    private var depth = 0
    /// The most brackets one value may nest, so a hostile file cannot exhaust the stack.
    static let nestingLimit = 100
    /// Whether `import re` came before, so `re.compile` names the module.
    private var importsRE = false

    init(text: String) {
        // Python reads "\r\n" and a lone "\r" as line ends too; as "\n", a line's end is one
        // kind of character ("\r\n" is one Character, so "\r\r\n" is two line ends, as there).
        characters = text.map { $0 == "\r\n" || $0 == "\r" ? "\n" : $0 }
    }

    /// Every assignment, in order.
    mutating func assignments() throws(Failure) -> [ThumborConfigFile.Assignment] {
        var found: [ThumborConfigFile.Assignment] = []
        while true {
            skipSpace()
            guard let next = peek() else { return found }
            if next == "\n" { advance(); continue }
            let start = line
            let name = try identifier()
            skipSpace()
            if name == "import" || name == "from" {
                try importStatement(first: name, line: start)
            } else {
                guard peek() == "=", peek(1) != "=" else {
                    throw Failure(line: start, reason: "is not NAME = VALUE, the only statement read here")
                }
                advance()
                let value = try expression()
                found.append(ThumborConfigFile.Assignment(name: name, value: value, line: start))
            }
            try endOfStatement()
        }
    }

    // MARK: Statements

    /// `import re` (the one module whose use is read: `re.compile`); thumbor's own files import
    /// nothing else a literal needs.
    private mutating func importStatement(first: String, line start: Int) throws(Failure) {
        guard first == "import", (try? identifier()) == "re" else {
            throw Failure(line: start, reason: "imports something other than re; only `import re` is read here")
        }
        importsRE = true
    }

    /// A line's end, a `;` or the file's end after a statement.
    private mutating func endOfStatement() throws(Failure) {
        skipSpace()
        switch peek() {
        case nil: return
        case "\n", ";": advance()
        default: throw Failure(line: line, reason: "has \"\(peek()!)\" after a value, where the line should end")
        }
    }

    // MARK: Values

    /// A value: a literal, or a product of numbers (`60 * 60 * 24`).
    private mutating func expression() throws(Failure) -> PythonLiteral {
        var value = try unary()
        skipSpace()
        while peek() == "*", peek(1) != "*" {
            advance()
            let factor = try unary()
            value = try product(value, factor)
            skipSpace()
        }
        if let next = peek(), "+-/%@&|^<>".contains(next) {
            throw Failure(line: line, reason: "holds an expression (\(next)); write the value itself")
        }
        return value
    }

    private func product(_ a: PythonLiteral, _ b: PythonLiteral) throws(Failure) -> PythonLiteral {
        switch (a, b) {
        case (.integer(let x), .integer(let y)):
            let (result, overflow) = x.multipliedReportingOverflow(by: y)
            guard !overflow else { throw Failure(line: line, reason: "holds a product too large for a setting") }
            return .integer(result)
        case (.integer(let x), .float(let y)): return .float(Double(x) * y)
        case (.float(let x), .integer(let y)): return .float(x * Double(y))
        case (.float(let x), .float(let y)): return .float(x * y)
        default: throw Failure(line: line, reason: "multiplies something other than numbers")
        }
    }

    /// A literal with any `-` or `+` before it.
    private mutating func unary() throws(Failure) -> PythonLiteral {
        var negated = false, signs = ""
        skipSpace()
        while let sign = peek(), sign == "-" || sign == "+" {
            if sign == "-" { negated.toggle() }
            signs.append(sign)
            advance()
            skipSpace()
        }
        let value = try atom()
        guard !signs.isEmpty else { return value }
        switch value {
        case .integer(let number):
            guard negated else { return value }
            let (negative, overflow) = Int(0).subtractingReportingOverflow(number)
            guard !overflow else { throw Failure(line: line, reason: "holds a number too large for a setting") }
            return .integer(negative)
        case .float(let number): return .float(negated ? -number : number)
        default: throw Failure(line: line, reason: "puts \(signs) before something other than a number")
        }
    }

    private mutating func atom() throws(Failure) -> PythonLiteral {
        skipSpace()
        guard let next = peek() else { throw Failure(line: line, reason: "ends where a value was expected") }
        switch next {
        case "[":
            return .list(try items(closing: "]"))
        case "(":
            return try parenthesized()
        case "{":
            return try dict()
        case "'", "\"":
            return .string(try strings())
        case "0"..."9", ".":
            return try number()
        default:
            guard next.isLetter || next == "_" else {
                throw Failure(line: line, reason: "has \"\(next)\" where a value was expected")
            }
            let start = index
            let word = try identifier()
            switch word {
            case "True": return .boolean(true)
            case "False": return .boolean(false)
            case "None": return .none
            case "re" where importsRE && peek() == ".":
                return try compiledPattern()
            default:
                // A string's prefix: r'…', u'…' (b'…' and f'…' are no text a setting reads).
                if ["r", "R", "u", "U"].contains(word), let quote = peek(), quote == "'" || quote == "\"" {
                    index = start
                    return .string(try strings())
                }
                throw Failure(line: line, reason: "names \(word), which is not a literal; write the value itself")
            }
        }
    }

    /// `re.compile('…')`, after `re`.
    private mutating func compiledPattern() throws(Failure) -> PythonLiteral {
        advance()
        guard (try? identifier()) == "compile" else { throw Failure(line: line, reason: "uses re other than re.compile") }
        skipSpace()
        guard peek() == "(" else { throw Failure(line: line, reason: "has re.compile without (") }
        let arguments = try items(closing: ")")
        guard arguments.count == 1, case .string(let pattern) = arguments[0] else {
            throw Failure(line: line, reason: "gives re.compile something other than one string (flags are not read)")
        }
        return .pattern(pattern)
    }

    /// `( … )`: a tuple when it is empty or a comma is inside, else the value inside.
    private mutating func parenthesized() throws(Failure) -> PythonLiteral {
        try openBracket()
        var found: [PythonLiteral] = []
        var hasComma = false
        while true {
            skipSpace()
            if peek() == ")" { advance(); depth -= 1; break }
            found.append(try expression())
            skipSpace()
            if peek() == "," { advance(); hasComma = true; continue }
            guard peek() == ")" else { throw Failure(line: line, reason: "has no , or ) after an item") }
        }
        return found.count == 1 && !hasComma ? found[0] : .tuple(found)
    }

    /// The items of `[ … ]` or `( … )` from its opening bracket, a comma after the last allowed.
    private mutating func items(closing: Character) throws(Failure) -> [PythonLiteral] {
        try openBracket()
        var found: [PythonLiteral] = []
        while true {
            skipSpace()
            if peek() == closing { advance(); depth -= 1; return found }
            found.append(try expression())
            skipSpace()
            if peek() == "," { advance(); continue }
            guard peek() == closing else { throw Failure(line: line, reason: "has no , or \(closing) after an item") }
        }
    }

    /// `{KEY: VALUE, …}` from its brace.
    private mutating func dict() throws(Failure) -> PythonLiteral {
        try openBracket()
        var entries: [PythonLiteral.DictEntry] = []
        while true {
            skipSpace()
            if peek() == "}" { advance(); depth -= 1; return .dict(entries) }
            let key = try expression()
            skipSpace()
            guard peek() == ":" else { throw Failure(line: line, reason: "has no : after a key in { }") }
            advance()
            entries.append(PythonLiteral.DictEntry(key: key, value: try expression()))
            skipSpace()
            if peek() == "," { advance(); continue }
            guard peek() == "}" else { throw Failure(line: line, reason: "has no , or } after an entry") }
        }
    }

    /// Past an opening bracket, one level deeper; throws past ``nestingLimit`` levels.
    private mutating func openBracket() throws(Failure) {
        advance()
        depth += 1
        guard depth <= Self.nestingLimit else {
            throw Failure(line: line, reason: "nests brackets deeper than \(Self.nestingLimit) levels")
        }
    }

    // MARK: Tokens

    /// A name: letters, digits and `_`, not starting with a digit.
    private mutating func identifier() throws(Failure) -> String {
        guard let first = peek(), first.isLetter || first == "_" else {
            throw Failure(line: line, reason: "has \(peek().map { "\"\($0)\"" } ?? "its end") where a name was expected")
        }
        var name = ""
        while let next = peek(), next.isLetter || next.isNumber || next == "_" {
            name.append(next)
            advance()
        }
        return name
    }

    /// A number: decimal, `0x`/`0o`/`0b`, with `_` between digits, or a float (`75e6`, `.5`).
    private mutating func number() throws(Failure) -> PythonLiteral {
        var text = ""
        while let next = peek(), next.isLetter || next.isNumber || next == "_" || next == "."
                || ((next == "-" || next == "+") && (text.last == "e" || text.last == "E") && !text.lowercased().hasPrefix("0x")) {
            text.append(next)
            advance()
        }
        let digits = text.replacingOccurrences(of: "_", with: "")
        let lower = digits.lowercased()
        for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] where lower.hasPrefix(prefix) {
            guard let value = Int(lower.dropFirst(2), radix: radix) else { break }
            return .integer(value)
        }
        if !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit) {
            guard let value = Int(digits) else { throw Failure(line: line, reason: "holds \(text), a number too large for a setting") }
            return .integer(value)
        }
        if digits.allSatisfy({ $0.isASCIIDigit || $0 == "." || $0 == "e" || $0 == "E" || $0 == "-" || $0 == "+" }),
           let value = Double(digits), value.isFinite {
            return .float(value)
        }
        throw Failure(line: line, reason: "has \(text), which is not a number read here")
    }

    /// One string or several side by side (`'a' 'b'` is `'ab'`, as Python joins them).
    private mutating func strings() throws(Failure) -> String {
        var joined = try string()
        while true {
            let saved = (index, line)
            skipSpace()
            guard let next = peek() else { break }
            if next == "'" || next == "\"" || (["r", "R", "u", "U"].contains(next) && (peek(1) == "'" || peek(1) == "\"")) {
                joined += try string()
            } else {
                (index, line) = saved
                break
            }
        }
        return joined
    }

    /// One string, from its prefix or quote: `'…'`, `"…"`, tripled for more than a line, `r` for raw.
    private mutating func string() throws(Failure) -> String {
        var raw = false
        if let prefix = peek(), prefix != "'", prefix != "\"" {
            raw = prefix == "r" || prefix == "R"
            advance()
        }
        guard let quote = peek() else { throw Failure(line: line, reason: "ends inside a string") }
        let start = line
        let tripled = peek(1) == quote && peek(2) == quote
        advance(tripled ? 3 : 1)
        var text = ""
        while true {
            guard let next = peek() else { throw Failure(line: start, reason: "has a string that does not end") }
            if next == quote && (!tripled || (peek(1) == quote && peek(2) == quote)) {
                advance(tripled ? 3 : 1)
                return text
            }
            if next == "\n" && !tripled { throw Failure(line: start, reason: "has a string that does not end on its line") }
            advance()
            guard next == "\\", let escaped = peek() else { text.append(next); continue }
            if raw {
                text.append(next)
                text.append(escaped)
                advance()
                continue
            }
            text += try escape(escaped)
        }
    }

    /// What a `\` and the characters after it stand for in a string that is not raw.
    private mutating func escape(_ escaped: Character) throws(Failure) -> String {
        advance()
        switch escaped {
        case "\n": return ""
        case "\\": return "\\"
        case "'": return "'"
        case "\"": return "\""
        case "n": return "\n"
        case "t": return "\t"
        case "r": return "\r"
        case "a": return "\u{07}"
        case "b": return "\u{08}"
        case "f": return "\u{0C}"
        case "v": return "\u{0B}"
        case "x", "u", "U":
            let count = escaped == "x" ? 2 : escaped == "u" ? 4 : 8
            var hex = ""
            for _ in 0..<count {
                guard let digit = peek(), digit.isHexDigit else { throw Failure(line: line, reason: "has a \\\(escaped) escape without \(count) hex digits") }
                hex.append(digit)
                advance()
            }
            guard let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) else {
                throw Failure(line: line, reason: "has \\\(escaped)\(hex), which is no character")
            }
            return String(Character(scalar))
        case "0"..."7":
            var octal = String(escaped)
            while octal.count < 3, let digit = peek(), ("0"..."7").contains(digit) {
                octal.append(digit)
                advance()
            }
            // Up to \777, a character up to U+01FF, as Python reads it.
            return String(Character(Unicode.Scalar(UInt16(octal, radix: 8) ?? 0) ?? "\0"))
        default:
            // Python keeps an unknown escape as written.
            return "\\" + String(escaped)
        }
    }

    /// Skips spaces, tabs, comments, `\` line joins, and line ends inside brackets.
    private mutating func skipSpace() {
        while let next = peek() {
            if next == " " || next == "\t" || next == "\u{0C}" {
                advance()
            } else if next == "#" {
                while let inComment = peek(), inComment != "\n" { advance() }
            } else if next == "\\" && peek(1) == "\n" {
                advance(2)
            } else if next == "\n" && depth > 0 {
                advance()
            } else {
                return
            }
        }
    }

    private func peek(_ ahead: Int = 0) -> Character? {
        index + ahead < characters.count ? characters[index + ahead] : nil
    }

    private mutating func advance(_ count: Int = 1) {
        for _ in 0..<count where index < characters.count {
            if characters[index] == "\n" { line += 1 }
            index += 1
        }
    }
}

private extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
