/// Style sheet text (a `<style>` element, a `style` attribute, a presentation attribute such as
/// `fill="url(…)"`) with every way out of the document taken away, for librsvg and browsers
/// alike: a `url()` that does not name a fragment of this document (`url(#gradient)`) becomes
/// `none`, and an `@import` rule is removed whole. Text with a backslash is refused whole: a
/// CSS escape can spell `url` or `data:` without their letters, and no honest drawing needs
/// one. So is text with a function that loads an image from a plain string
/// (``fetchingFunctions``).
enum SVGStyleText {
    /// CSS functions that take a URL as a string, without `url(`: `image-set("https://…" 1x)`
    /// (and its `-webkit-` form, which contains it), `image()`, `cross-fade()`, `src()`,
    /// `element()`.
    private static let fetchingFunctions = ["image-set(", "image(", "cross-fade(", "src(", "element("].map { Array($0.utf8) }

    /// `css` made safe, or nil when it must be dropped (an escape, a function of
    /// ``fetchingFunctions``, an unterminated `url(` or `@import`).
    static func neutralised(_ css: [UInt8]) -> [UInt8]? {
        guard !css.contains(UInt8(ascii: "\\")) else { return nil }
        let lower = css.map(SVGByteScanner.lowercased)
        guard !fetchingFunctions.contains(where: { function in
            lower.indices.contains { lower[$0...].starts(with: function) }
        }) else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(css.count)
        var index = 0
        while index < css.count {
            if starts(lower, "url(", at: index) {
                guard let close = end(of: lower, from: index + 4, at: UInt8(ascii: ")")) else { return nil }
                if fragmentOnly(lower, from: index + 4) {
                    out += css[index..<close]
                } else {
                    out += Array("none".utf8)
                }
                index = close
            } else if starts(lower, "@import", at: index) {
                guard let close = end(of: lower, from: index + 7, at: UInt8(ascii: ";")) else { return nil }
                index = close
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

    /// The index just past the first `terminator` from `start` outside quotes (the `)` of a
    /// `url(`, the `;` of an `@import`; a quoted argument may hold either), nil when there is none.
    private static func end(of text: [UInt8], from start: Int, at terminator: UInt8) -> Int? {
        var index = start
        var quote: UInt8?
        while index < text.count {
            let byte = text[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == terminator {
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
