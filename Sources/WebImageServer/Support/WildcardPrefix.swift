/// A prefix pattern in which `*` stands for any run of characters other than `/`, as imgproxy
/// reads `IMGPROXY_ALLOWED_SOURCES` and `IMGPROXY_URL_REPLACEMENTS`. So `http://*.cdn.example/`
/// matches the start of `http://a.cdn.example/…` and `http://a.b.cdn.example/…`, but not of
/// `http://other.example/.cdn.example/…`: a wildcard never reaches past the host.
struct WildcardPrefix: Sendable {
    /// Where a text starts with a match: the end of the matched prefix and each wildcard's run,
    /// as byte offsets into the text's UTF-8.
    struct Match: Equatable {
        /// The byte just past the matched prefix.
        var end: Int
        /// The bytes each wildcard stood for, in order.
        var runs: [Range<Int>]
    }

    /// The pattern's text between its wildcards, as bytes.
    private let parts: [[UInt8]]

    /// The pattern `text` writes.
    init(_ text: String) {
        parts = text.split(separator: "*", omittingEmptySubsequences: false).map { Array($0.utf8) }
    }

    /// Whether `text` starts with a text the pattern matches.
    func matches(_ text: String) -> Bool {
        match(Array(text.utf8)) != nil
    }

    /// The match at the start of `bytes`, each wildcard taking the longest run that lets the
    /// rest match (as a regular expression's greedy `[^/]*` does); nil when there is none.
    func match(_ bytes: [UInt8]) -> Match? {
        guard bytes.starts(with: parts[0]) else { return nil }
        var runs: [Range<Int>] = []
        guard let end = match(bytes, from: parts[0].count, part: 1, runs: &runs) else { return nil }
        return Match(end: end, runs: runs)
    }

    /// Where parts `part…` end when `bytes` from `start` on begin with them, each after a
    /// wildcard's run (recorded in `runs`). The parts are the configuration's (few); the text is
    /// bounded by the path limit.
    private func match(_ bytes: [UInt8], from start: Int, part: Int, runs: inout [Range<Int>]) -> Int? {
        guard part < parts.count else { return start }
        var runEnd = start
        while runEnd < bytes.count, bytes[runEnd] != UInt8(ascii: "/") { runEnd += 1 }
        for position in stride(from: runEnd, through: start, by: -1) where bytes[position...].starts(with: parts[part]) {
            runs.append(start..<position)
            if let end = match(bytes, from: position + parts[part].count, part: part + 1, runs: &runs) { return end }
            runs.removeLast()
        }
        return nil
    }
}
