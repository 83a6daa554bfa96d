import Foundation

/// A `thumbor.conf` read as thumbor's settings are written in it: one assignment a line,
/// `NAME = LITERAL`, of strings, numbers (a product of numbers too, `60 * 60 * 24`), `True`,
/// `False`, `None`, lists, tuples and dicts of those, and `re.compile('…')` once `import re` is
/// there; blank lines and `#` comments between them. Anything else — a call, a name, an
/// expression, a statement of another kind — is an error naming its line: such a file is code
/// thumbor would run, and no rule here knows what it means.
public struct ThumborConfigFile: Sendable, Equatable {
    /// One `NAME = LITERAL` of the file.
    public struct Assignment: Sendable, Equatable {
        /// The setting's name (`QUALITY`).
        public let name: String
        /// The value assigned.
        public let value: PythonLiteral
        /// The line it starts on, from 1.
        public let line: Int
    }

    /// The path the file was read from, as given.
    public let path: String
    /// Its assignments, in the order written (a later one of the same name wins, as in Python).
    public let assignments: [Assignment]

    /// The file at `path`, read; throws ``ConfigurationError`` when it cannot be read or holds
    /// something other than assignments of literals, its source `PATH:LINE`.
    public init(path: String) throws(ConfigurationError) {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw ConfigurationError(source: path, reason: "is no readable UTF-8 file")
        }
        try self.init(text: text, path: path)
    }

    /// `text`, read as the contents of the file at `path`.
    public init(text: String, path: String) throws(ConfigurationError) {
        self.path = path
        var reader = PythonLiteralReader(text: text)
        do {
            assignments = try reader.assignments()
        } catch {
            throw ConfigurationError(source: "\(path):\(error.line)", reason: error.reason)
        }
    }
}
