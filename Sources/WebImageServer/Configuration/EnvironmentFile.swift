import Foundation

/// A `.env` file of variables (imgproxy's `IMGPROXY_ENV_LOCAL_FILE_PATH`), read as
/// godotenv, imgproxy's reader, reads the common forms: `NAME=VALUE` a line, `export ` before it
/// allowed, blank lines and `#` comments between; a value bare (trimmed, cut at ` #`), in single
/// quotes (as written) or in double quotes (`\n`, `\t`, `\"`, `\\` and `\$` unescaped). Anything
/// else is an error naming its line, rather than a setting silently lost.
public struct EnvironmentFile: Sendable, Equatable {
    /// The variables, a later line of the same name winning.
    public let variables: [String: String]

    /// The file at `path`, read; throws ``ConfigurationError`` (its source `PATH` or
    /// `PATH:LINE`) when it cannot be read or a line is none of the forms above.
    public init(path: String) throws(ConfigurationError) {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw ConfigurationError(source: path, reason: "is no readable UTF-8 file")
        }
        try self.init(text: text, path: path)
    }

    /// `text`, read as the contents of the file at `path`.
    public init(text: String, path: String) throws(ConfigurationError) {
        var variables: [String: String] = [:]
        // A line ends at LF, CR LF (one Character) or CR.
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            var line = raw.drop { $0 == " " || $0 == "\t" }
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            if line.hasPrefix("export ") { line = line.dropFirst("export ".count).drop { $0 == " " } }
            guard let equals = line.firstIndex(of: "=") else {
                throw ConfigurationError(source: "\(path):\(index + 1)", reason: "is no NAME=VALUE line")
            }
            let name = line[..<equals].trimmingCharacters(in: .whitespaces)
            guard Self.isName(name) else {
                throw ConfigurationError(source: "\(path):\(index + 1)", reason: "\"\(name)\" is no variable name")
            }
            guard let value = Self.value(line[line.index(after: equals)...]) else {
                throw ConfigurationError(source: "\(path):\(index + 1)", reason: "the value of \(name) has no closing quote or holds something after it")
            }
            variables[name] = value
        }
        self.variables = variables
    }

    /// Whether `name` is a variable's name: a letter or `_`, then letters, digits, `_` or `.`.
    private static func isName(_ name: String) -> Bool {
        func isLetter(_ scalar: Unicode.Scalar) -> Bool { ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar) || scalar == "_" }
        guard let first = name.unicodeScalars.first, isLetter(first) else { return false }
        return name.unicodeScalars.allSatisfy { isLetter($0) || ("0"..."9").contains($0) || $0 == "." }
    }

    /// The value of `text` (what follows `=`), or nil when a quote is not closed or text
    /// other than a comment follows it.
    private static func value(_ text: Substring) -> String? {
        let text = text.drop { $0 == " " || $0 == "\t" }
        guard let quote = text.first, quote == "'" || quote == "\"" else {
            let bare = text.range(of: " #").map { text[..<$0.lowerBound] } ?? text
            return bare.trimmingCharacters(in: .whitespaces)
        }
        var value = "", escaped = false, end: Substring.Index?
        for index in text.indices.dropFirst() {
            let character = text[index]
            if quote == "\"", escaped {
                value.append(["n": "\n", "t": "\t", "r": "\r"][character] ?? character)
                escaped = false
            } else if quote == "\"", character == "\\" {
                escaped = true
            } else if character == quote {
                end = index
                break
            } else {
                value.append(character)
            }
        }
        guard let end else { return nil }
        let rest = text[text.index(after: end)...].trimmingCharacters(in: .whitespaces)
        return rest.isEmpty || rest.hasPrefix("#") ? value : nil
    }
}
