/// Style sheet text (a `<style>` element, a `style` attribute, a presentation attribute such as
/// `fill="url(…)"`) with every way out of the document taken away, for librsvg: a `url()` that
/// does not name a fragment of this document (`url(#gradient)`) becomes `none`, and `@import`
/// becomes an at-rule nothing knows. Text with a backslash is refused whole: a CSS escape can
/// spell `url` or `data:` without their letters, and no honest drawing needs one.
enum SVGStyleText {
    /// `css` made safe, or nil when it must be dropped (an escape, or an unterminated `url(`).
    static func neutralised(_ css: [UInt8]) -> [UInt8]? {
        guard !css.contains(UInt8(ascii: "\\")) else { return nil }
        let lower = css.map(SVGByteScanner.lowercased)
        var out: [UInt8] = []
        out.reserveCapacity(css.count)
        var index = 0
        while index < css.count {
            if starts(lower, "url(", at: index) {
                guard let end = urlEnd(lower, from: index + 4) else { return nil }
                if fragmentOnly(lower, from: index + 4) {
                    out += css[index..<end]
                } else {
                    out += Array("none".utf8)
                }
                index = end
            } else if starts(lower, "@import", at: index) {
                out += Array("@x-blocked-import".utf8)
                index += 7
            } else {
                out.append(css[index])
                index += 1
            }
        }
        return out
    }

    /// Whether the argument of a `url(` ending at `start` begins with `#`, after spaces and a quote.
    private static func fragmentOnly(_ text: [UInt8], from start: Int) -> Bool {
        var index = start
        while index < text.count, SVGByteScanner.isWhitespace(text[index]) || text[index] == UInt8(ascii: "\"")
            || text[index] == UInt8(ascii: "'") { index += 1 }
        return index < text.count && text[index] == UInt8(ascii: "#")
    }

    /// The index just past the `)` closing a `url(` whose argument starts at `start` (a quoted
    /// argument may hold `)`), nil when there is none.
    private static func urlEnd(_ text: [UInt8], from start: Int) -> Int? {
        var index = start
        var quote: UInt8?
        while index < text.count {
            let byte = text[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ")") {
                return index + 1
            }
            index += 1
        }
        return nil
    }

    private static func starts(_ text: [UInt8], _ prefix: StaticString, at index: Int) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard index + count <= text.count else { return false }
        return (0..<count).allSatisfy { text[index + $0] == prefix.utf8Start[$0] }
    }
}
