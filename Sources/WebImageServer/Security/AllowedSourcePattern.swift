/// One `--allowed-sources` entry (imgproxy's `IMGPROXY_ALLOWED_SOURCES`): a prefix a source URL
/// must start with, in which `*` stands for any run of characters other than `/`, as imgproxy
/// reads it. So `http://*.cdn.example/` allows `http://a.cdn.example/…` and
/// `http://a.b.cdn.example/…`, but not `http://other.example/.cdn.example/…`: the wildcard never
/// reaches past the host.
struct AllowedSourcePattern: Sendable {
    /// The pattern's text between its wildcards, as bytes.
    private let parts: [[UInt8]]

    /// The pattern `text` writes.
    init(_ text: String) {
        parts = text.split(separator: "*", omittingEmptySubsequences: false).map { Array($0.utf8) }
    }

    /// Whether `url` starts with a text the pattern matches.
    func matches(_ url: String) -> Bool {
        let bytes = Array(url.utf8)
        guard bytes.starts(with: parts[0]) else { return false }
        return matches(bytes, from: parts[0].count, part: 1)
    }

    /// Whether `bytes` from `start` on begin with parts `part…`, each after a wildcard's run.
    /// The parts are the configuration's (few); the URL is bounded by the path limit.
    private func matches(_ bytes: [UInt8], from start: Int, part: Int) -> Bool {
        guard part < parts.count else { return true }
        var position = start
        while true {
            if bytes[position...].starts(with: parts[part]), matches(bytes, from: position + parts[part].count, part: part + 1) {
                return true
            }
            guard position < bytes.count, bytes[position] != UInt8(ascii: "/") else { return false }
            position += 1
        }
    }
}
