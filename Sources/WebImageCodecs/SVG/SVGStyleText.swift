/// Style sheet text (a `<style>` element, a `style` attribute, a presentation attribute such as
/// `fill="url(…)"`) with every way out of the document taken away, for librsvg and browsers
/// alike.
///
/// The text is not tokenised as CSS; instead, everything that is written on is scanned for
/// what could fetch, and only one shape is kept unchanged: a `url()` of a fragment of this
/// document, `url(#name)` (the name quoted or not, of letters, digits and `-_.:`), and only
/// where it names a paint server, filter, clip, mask or marker (``fragmentProperties``): as
/// an image or cursor even a fragment makes a browser fetch the document again. Comments
/// become a space first (so none can hide text from the scan or split it differently than a
/// browser would). Any other `url(…)` becomes `none`, an `@import` rule becomes a space, and
/// text with a backslash is refused: a CSS escape can spell `url` or `data:` without their
/// letters, and no honest drawing needs one. So is text with a function that loads an image
/// from a plain string (``fetchingFunctions``), and text whose rewrite a second rewrite would
/// change (what was removed joined its neighbours into a new `url(` or `@import`). What is
/// removed may reach further than a browser would read it (a string a line end would close),
/// never less far.
enum SVGStyleText {
    /// Where the text stands, which decides the `url(#name)` it keeps.
    enum Context {
        /// Declarations (`<style>` text, a `style` attribute): a fragment is kept in the value of
        /// a property of ``fragmentProperties``.
        case declarations
        /// The value of one property (a presentation attribute, an animated value): a fragment
        /// is kept when `keepsFragments`.
        case value(keepsFragments: Bool)

        /// The context of the value of the attribute `name` (its local name).
        static func attribute(_ name: [UInt8]) -> Context {
            name == Array("style".utf8) ? .declarations : .value(keepsFragments: fragmentProperties.contains(name))
        }
    }

    /// The properties whose `url(#name)` names something drawn from this document: paint
    /// servers (`fill`, `stroke`), `filter`, `clip-path`, `mask` and the markers.
    static let fragmentProperties: Set<[UInt8]> = Set(["fill", "stroke", "filter", "clip-path", "mask", "marker", "marker-start",
                                                       "marker-mid", "marker-end"].map { Array($0.utf8) })

    /// CSS functions that take a URL as a string, without `url(`: `image-set("https://…" 1x)`
    /// (and its `-webkit-` form, which contains it), `image()`, `cross-fade()`, `src()`,
    /// `element()`.
    private static let fetchingFunctions = ["image-set(", "image(", "cross-fade(", "src(", "element("].map { Array($0.utf8) }

    /// `css` made safe in `context`, or nil when it must be dropped (an escape, a function of
    /// ``fetchingFunctions``, an unterminated `url(` or `@import`, a rewrite that is no fixed point).
    static func neutralised(_ css: [UInt8], in context: Context) -> [UInt8]? {
        // Every attribute passes here, path data too: without `(`, `@`, `/` or a backslash a
        // value holds no `url(`, function, `@import`, comment or escape, and is kept as it is.
        guard css.contains(where: { $0 == UInt8(ascii: "(") || $0 == UInt8(ascii: "@") || $0 == UInt8(ascii: "/")
                                    || $0 == UInt8(ascii: "\\") }) else { return css }
        guard !css.contains(UInt8(ascii: "\\")), let out = rewritten(withoutComments(css), in: context),
              rewritten(withoutComments(out), in: context) == out else { return nil }
        return out
    }

    /// One pass over comment-free `text`: fragments kept where `context` keeps them, other
    /// `url()`s `none`, `@import` rules a space; nil as ``neutralised(_:in:)`` says.
    private static func rewritten(_ text: [UInt8], in context: Context) -> [UInt8]? {
        let lower = text.map(SVGByteScanner.lowercased)
        guard !fetchingFunctions.contains(where: { function in
            lower.indices.contains { lower[$0...].starts(with: function) }
        }) else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(text.count)
        // In declarations: where the current one began, and its property once its colon is
        // read; structure counts only outside strings (closed by their quote or a line end) and
        // brackets, where a `;` or `:` belongs to a value (`var(--a, ";fill:")`).
        var declarationStart = 0
        var property: [UInt8]?
        var quote: UInt8?
        var depth = 0
        var index = 0
        while index < text.count {
            if starts(lower, "url(", at: index) {
                let keeps = switch context {
                case .declarations: quote == nil && depth == 0 && property.map(fragmentProperties.contains) ?? false
                case .value(let keepsFragments): quote == nil && depth == 0 && keepsFragments
                }
                if keeps, let close = fragmentEnd(text, from: index + 4) {
                    out += text[index..<close]
                    index = close
                } else {
                    guard let close = end(of: lower, from: index + 4, at: UInt8(ascii: ")")) else { return nil }
                    out += Array("none".utf8)
                    index = close
                }
            } else if starts(lower, "@import", at: index) {
                guard let close = end(of: lower, from: index + 7, at: UInt8(ascii: ";")) else { return nil }
                out.append(0x20)
                index = close
            } else {
                let byte = lower[index]
                if let open = quote {
                    if byte == open || byte == 0x0A || byte == 0x0D || byte == 0x0C { quote = nil }
                } else {
                    switch byte {
                    case UInt8(ascii: "\""), UInt8(ascii: "'"):
                        quote = byte
                    case UInt8(ascii: "("), UInt8(ascii: "["):
                        depth += 1
                    case UInt8(ascii: ")"), UInt8(ascii: "]"):
                        depth = max(0, depth - 1)
                    case UInt8(ascii: ";"), UInt8(ascii: "{"), UInt8(ascii: "}") where depth == 0:
                        declarationStart = index + 1
                        property = nil
                    case UInt8(ascii: ":") where property == nil && depth == 0:
                        property = Array(lower[declarationStart..<index].filter { !SVGByteScanner.isWhitespace($0) })
                    default:
                        break
                    }
                }
                out.append(text[index])
                index += 1
            }
        }
        return out
    }

    /// `css` with each comment (`/*` to `*/`, or to the end) replaced by a space.
    private static func withoutComments(_ css: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(css.count)
        var index = 0
        while index < css.count {
            if css[index] == UInt8(ascii: "/"), index + 1 < css.count, css[index + 1] == UInt8(ascii: "*") {
                var close = index + 2
                while close + 1 < css.count, !(css[close] == UInt8(ascii: "*") && css[close + 1] == UInt8(ascii: "/")) { close += 1 }
                out.append(0x20)
                index = close + 2
            } else {
                out.append(css[index])
                index += 1
            }
        }
        return out
    }

    /// The index just past the `)` of a `url(` whose argument starts at `start` when that
    /// argument is exactly a fragment of this document: spaces, `#name` (quoted or not, the
    /// name of ``SVGAllowList/isNameByte(_:)`` bytes), spaces, `)`; nil for any other argument.
    private static func fragmentEnd(_ text: [UInt8], from start: Int) -> Int? {
        var index = start
        func skipSpaces() { while index < text.count, text[index] == 0x20 || text[index] == 0x09 { index += 1 } }
        skipSpaces()
        let quote: UInt8? = index < text.count && (text[index] == UInt8(ascii: "\"") || text[index] == UInt8(ascii: "'"))
            ? text[index] : nil
        if quote != nil { index += 1 }
        guard index < text.count, text[index] == UInt8(ascii: "#") else { return nil }
        index += 1
        let name = index
        while index < text.count, SVGAllowList.isNameByte(text[index]) { index += 1 }
        guard index > name else { return nil }
        if let quote {
            guard index < text.count, text[index] == quote else { return nil }
            index += 1
        }
        skipSpaces()
        guard index < text.count, text[index] == UInt8(ascii: ")") else { return nil }
        return index + 1
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
