/// One `--url-replacement` (imgproxy's `IMGPROXY_URL_REPLACEMENTS`): a source URL starting with
/// `pattern` (a prefix in which `*` stands for a run of characters other than `/`) has
/// that start replaced by `replacement`, in which `${1}` (or `$1`) is what the first `*` stood
/// for, and `$$` is a `$`. Replacements apply in order, each to what the ones before made, before
/// the base URL: `test://*/=http://images.dev/${1}/` turns `test://lorem/a.jpg` into
/// `http://images.dev/lorem/a.jpg`.
public struct URLReplacement: Sendable {
    /// The prefix replaced.
    private let pattern: WildcardPrefix
    /// What replaces it, with its references.
    private let replacement: String

    /// The replacement of `pattern` by `replacement`.
    public init(pattern: String, replacement: String) {
        self.pattern = WildcardPrefix(pattern)
        self.replacement = replacement
    }

    /// The replacement `PATTERN=REPLACEMENT` writes, or nil when it has no `=`.
    public init?(setting text: Substring) {
        guard let equals = text.firstIndex(of: "=") else { return nil }
        self.init(pattern: String(text[..<equals]), replacement: String(text[text.index(after: equals)...]))
    }

    /// `url` with its start replaced when the pattern matches it, else as it is.
    func apply(to url: String) -> String {
        let bytes = Array(url.utf8)
        guard let match = pattern.match(bytes) else { return url }
        return expanded(with: match.runs.map { String(decoding: bytes[$0], as: UTF8.self) })
            + String(decoding: bytes[match.end...], as: UTF8.self)
    }

    /// The replacement with its references to `runs` filled in: `${N}` and `$N` (N from 1; a
    /// name that is no run's number stands for nothing), `$$` for a `$`.
    private func expanded(with runs: [String]) -> String {
        var result = "", rest = Substring(replacement)
        while let dollar = rest.firstIndex(of: "$") {
            result += rest[..<dollar]
            rest = rest[rest.index(after: dollar)...]
            if rest.first == "$" {
                result += "$"
                rest = rest.dropFirst()
                continue
            }
            let name: Substring
            if rest.first == "{", let close = rest.firstIndex(of: "}") {
                name = rest[rest.index(after: rest.startIndex)..<close]
                rest = rest[rest.index(after: close)...]
            } else {
                name = rest.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
                guard !name.isEmpty else {
                    result += "$"
                    continue
                }
                rest = rest[name.endIndex...]
            }
            if let number = Int(name), runs.indices.contains(number - 1) { result += runs[number - 1] }
        }
        return result + rest
    }
}
