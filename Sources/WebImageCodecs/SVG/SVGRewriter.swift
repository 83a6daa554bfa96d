import WebImage

/// The one pass of ``SVGSanitizer``: reads the document token by token (text, CDATA, comments,
/// processing instructions, the document type, tags) and writes what ``SVGAllowList`` and the
/// policy keep, counting elements and depth as it goes.
struct SVGRewriter {
    private var scanner: SVGByteScanner
    private let policy: SVGSanitizer.Policy
    private let limits: SVGLimits
    private var entities: SVGEntities
    private var out: [UInt8] = []
    /// The open elements' names, outermost first.
    private var open: [ArraySlice<UInt8>] = []
    private var elementCount = 0
    private var cost = SVGDrawingCost()
    /// While inside a removed element (`<script>`, `<foreignObject>`, anything not on the
    /// allow-list): the depth at which it was opened.
    private var removedAt: Int?
    /// While inside a `<style>` element: its text so far, references resolved.
    private var styleText: [UInt8]?
    /// A style sheet written as the root element's first child, until it is.
    private var prependedStyle: [UInt8]?

    /// A rewriter of `bytes`, writing `prependedStyle` as a style sheet first inside the root.
    init(bytes: [UInt8], policy: SVGSanitizer.Policy, limits: SVGLimits, prependedStyle: [UInt8]? = nil) {
        self.prependedStyle = prependedStyle
        scanner = SVGByteScanner(bytes: bytes)
        self.policy = policy
        self.limits = limits
        entities = SVGEntities(limits: limits)
        out.reserveCapacity(bytes.count)
    }

    /// The rewritten document, and how many times a filter primitive may run over its drawing
    /// (``SVGDrawingCost/filterRuns``).
    mutating func run() throws(ImageCodingError) -> (document: [UInt8], filterRuns: Int) {
        // XML has no control characters but tab and the line ends: a reader may stop at a NUL
        // that this scan reads past, or take an escape (0x1B) as a shift between encodings.
        if let control = scanner.bytes.firstIndex(where: { $0 < 0x20 && !SVGByteScanner.isWhitespace($0) }) {
            throw .corrupt(.svg, "a control character (0x\(String(scanner.bytes[control], radix: 16))) at byte \(control)")
        }
        _ = scanner.skip("\u{FEFF}")
        if SVGDeclaration.isAt(scanner) {
            out += try SVGDeclaration.read(&scanner)
        }
        while !scanner.atEnd {
            if scanner.current != UInt8(ascii: "<") {
                try text()
            } else if scanner.skip("<!--") {
                _ = try scanner.read(until: "-->")
            } else if scanner.skip("<![CDATA[") {
                try characterData(try scanner.read(until: "]]>"))
            } else if scanner.skip("<!DOCTYPE") {
                guard elementCount == 0 else { throw .corrupt(.svg, "a document type after the root element") }
                try SVGDoctype.read(&scanner, into: &entities)
            } else if scanner.skip("<?") {
                _ = try scanner.read(until: "?>")
            } else if scanner.skip("</") {
                try endTag()
            } else if scanner.starts(with: "<!") {
                throw .corrupt(.svg, "an unknown declaration at byte \(scanner.position)")
            } else {
                scanner.position += 1
                try startTag()
            }
        }
        guard elementCount > 0 else { throw .corrupt(.svg, "no root element") }
        guard open.isEmpty else { throw .truncated(.svg) }
        try cost.check(limits)
        return (out, cost.filterRuns)
    }

    /// Character data up to the next `<`.
    private mutating func text() throws(ImageCodingError) {
        let start = scanner.position
        while !scanner.atEnd, scanner.current != UInt8(ascii: "<") { scanner.position += 1 }
        let raw = scanner.bytes[start..<scanner.position]
        if open.isEmpty {
            // Outside the root only white space is XML; anything else (a UTF-16 byte order
            // mark among it) would be read by some reader, not by this one.
            guard raw.allSatisfy(SVGByteScanner.isWhitespace) else {
                throw .corrupt(.svg, "text outside the root element at byte \(start)")
            }
            out += raw
            return
        }
        guard removedAt == nil else { return }
        if styleText != nil {
            styleText! += try entities.resolve(raw, resolvingAll: true)
        } else {
            out += try entities.resolve(raw, resolvingAll: false)
        }
    }

    /// The contents of a CDATA section.
    private mutating func characterData(_ raw: ArraySlice<UInt8>) throws(ImageCodingError) {
        guard !open.isEmpty else { throw .corrupt(.svg, "character data outside the root element") }
        guard removedAt == nil else { return }
        if styleText != nil {
            styleText! += raw
        } else {
            out += Array("<![CDATA[".utf8) + raw + Array("]]>".utf8)
        }
    }

    /// A start tag after its `<`: name, attributes, `>` or `/>`.
    private mutating func startTag() throws(ImageCodingError) {
        let name = try scanner.readName()
        var attributes: [(name: ArraySlice<UInt8>, value: [UInt8])] = []
        var selfClosing = false
        while true {
            scanner.skipWhitespace()
            if scanner.skip("/>") { selfClosing = true; break }
            if scanner.skip(">") { break }
            if scanner.atEnd { throw .truncated(.svg) }
            let attribute = try scanner.readName()
            scanner.skipWhitespace()
            guard scanner.skip("=") else {
                if scanner.atEnd { throw .truncated(.svg) }
                throw .corrupt(.svg, "an attribute without a value at byte \(scanner.position)")
            }
            scanner.skipWhitespace()
            let raw = try scanner.readQuoted()
            attributes.append((attribute, try entities.resolve(raw, resolvingAll: true, normalisingSpace: true)))
        }
        elementCount += 1
        guard elementCount <= limits.maxElements else {
            throw .unsupportedFeature(.svg, "more than \(limits.maxElements) elements")
        }
        guard open.count < limits.maxDepth else {
            throw .unsupportedFeature(.svg, "elements nested more than \(limits.maxDepth) deep")
        }
        let local = Self.localName(name)
        // A style sheet holds text only: an element inside one goes with all it holds, so that
        // no text after it escapes the style sheet's rewriting.
        let written = removedAt == nil && styleText == nil && keeps(name, local: local, attributes: attributes)
        if written { try SVGFilterBounds.check(local, attributes: attributes) }
        // Only a written element's `id` (spelt so) and `<use>` count: a removed decoy must not
        // claim an id before the element a browser draws by it.
        cost.open(id: written ? attributes.first { $0.name.elementsEqual("id".utf8) }?.value : nil,
                  useTarget: written && local == Array("use".utf8) ? Self.fragment(of: attributes) : nil,
                  filterPrimitive: local.starts(with: Array("fe".utf8)),
                  hasFilter: attributes.contains { attribute in
                      let key = Self.localName(attribute.name)
                      return key == Array("filter".utf8)
                          || key == Array("style".utf8) && Self.contains(attribute.value.map(SVGByteScanner.lowercased), "filter")
                  },
                  selfClosing: selfClosing)
        if removedAt == nil, !written {
            if !selfClosing { removedAt = open.count }
        } else if written {
            write(name, attributes: attributes, element: local, selfClosing: selfClosing)
            if !selfClosing, local == Array("style".utf8) { styleText = [] }
            if open.isEmpty, !selfClosing, let css = prependedStyle {
                // In the root's namespace: `svg:style` under `svg:svg`.
                let prefix = name.firstIndex(of: UInt8(ascii: ":")).map { Array(name[...$0]) } ?? []
                let style = prefix + Array("style".utf8)
                out += [UInt8(ascii: "<")] + style + [UInt8(ascii: ">")]
                writeStyleSheet(css)
                out += Array("</".utf8) + style + [UInt8(ascii: ">")]
            }
            if open.isEmpty { prependedStyle = nil }
        }
        if !selfClosing { open.append(name) }
    }

    /// An end tag after its `</`; it must close the innermost open element.
    private mutating func endTag() throws(ImageCodingError) {
        let name = try scanner.readName()
        scanner.skipWhitespace()
        guard scanner.skip(">") else {
            if scanner.atEnd { throw .truncated(.svg) }
            throw .corrupt(.svg, "an end tag not closed by > at byte \(scanner.position)")
        }
        guard let innermost = open.popLast(), innermost.elementsEqual(name) else {
            throw .corrupt(.svg, "an end tag that closes no open element")
        }
        cost.close()
        if let depth = removedAt {
            if open.count == depth { removedAt = nil }
            return
        }
        if let css = styleText {
            styleText = nil
            writeStyleSheet(css)
        }
        out += Array("</".utf8) + name + [UInt8(ascii: ">")]
    }

    /// Writes the text of a style sheet, made safe; one that mentions `filter` makes every
    /// element count as filtered (``SVGDrawingCost/styleSheetFilters()``).
    private mutating func writeStyleSheet(_ css: [UInt8]) {
        let safe = SVGStyleText.neutralised(css, in: .declarations) ?? []
        if Self.contains(safe.map(SVGByteScanner.lowercased), "filter") { cost.styleSheetFilters() }
        out += Self.escaped(safe, inAttribute: false)
    }

    /// Writes a start tag with the attributes the policy keeps.
    private mutating func write(_ name: ArraySlice<UInt8>, attributes: [(name: ArraySlice<UInt8>, value: [UInt8])],
                                element: [UInt8], selfClosing: Bool) {
        out.append(UInt8(ascii: "<"))
        out += name
        for (attribute, value) in attributes {
            guard let kept = keptValue(of: attribute, value: value, element: element) else { continue }
            out.append(0x20)
            out += attribute
            out += Array("=\"".utf8)
            out += Self.escaped(kept, inAttribute: true)
            out.append(UInt8(ascii: "\""))
        }
        out += Array((selfClosing ? "/>" : ">").utf8)
    }

    /// Whether the element `name` (its local name `local`) is written: it is on the allow-list
    /// and, for a SMIL element, animates no attribute it must not.
    private func keeps(_ name: ArraySlice<UInt8>, local: [UInt8],
                       attributes: [(name: ArraySlice<UInt8>, value: [UInt8])]) -> Bool {
        guard SVGAllowList.keeps(element: name) else { return false }
        guard SVGAllowList.animations.contains(local) else { return true }
        return attributes.last { $0.name.elementsEqual("attributeName".utf8) }.map { SVGAllowList.animates($0.value) } ?? true
    }

    /// The value to write for `attribute` of `element`, nil to drop it: an attribute on the
    /// allow-list; a namespace declaration of its own namespace only; an `href` naming a
    /// fragment of the document (but in `<image>`, which would fetch the document again, only
    /// a raster `data:` URL, and only when serving); any other value with its style sheet
    /// references neutralised (``SVGStyleText``).
    private func keptValue(of attribute: ArraySlice<UInt8>, value: [UInt8], element: [UInt8]) -> [UInt8]? {
        guard SVGAllowList.keeps(attribute: attribute) else { return nil }
        if let namespace = SVGAllowList.namespace(declaredBy: attribute) { return value == namespace ? value : nil }
        let url = value.filter { $0 > 0x20 }.map(SVGByteScanner.lowercased)
        if url.starts(with: Array("javascript:".utf8)) || url.starts(with: Array("vbscript:".utf8)) { return nil }
        let local = Self.localName(attribute)
        guard local == Array("href".utf8) else { return SVGStyleText.neutralised(value, in: .attribute(local)) }
        if element == Array("image".utf8) { return policy == .serving && SVGAllowList.isRasterDataURL(value) ? value : nil }
        return SVGAllowList.isFragment(value) ? value : nil
    }

    /// The id a `<use>` refers to: its `href` (or `xlink:href`) without the `#`; nil for another document.
    private static func fragment(of attributes: [(name: ArraySlice<UInt8>, value: [UInt8])]) -> [UInt8]? {
        // `href` goes before `xlink:href` wherever it stands, as browsers and librsvg read them.
        let href = attributes.last { $0.name.elementsEqual("href".utf8) } ?? attributes.last { $0.name.elementsEqual("xlink:href".utf8) }
        guard let value = href?.value, SVGAllowList.isFragment(value) else { return nil }
        return Array(value.dropFirst())
    }

    /// The part of a qualified name after its prefix (`href` of `xlink:href`).
    private static func localName(_ name: ArraySlice<UInt8>) -> [UInt8] {
        guard let colon = name.lastIndex(of: UInt8(ascii: ":")) else { return Array(name) }
        return Array(name[(colon + 1)...])
    }

    /// `text` escaped for XML: `&` and `<` always, `>` in text, `"` and the characters an
    /// attribute would turn into spaces in an attribute.
    private static func escaped(_ text: [UInt8], inAttribute: Bool) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.count)
        for byte in text {
            switch byte {
            case UInt8(ascii: "&"): out += Array("&amp;".utf8)
            case UInt8(ascii: "<"): out += Array("&lt;".utf8)
            case UInt8(ascii: ">") where !inAttribute: out += Array("&gt;".utf8)
            case UInt8(ascii: "\"") where inAttribute: out += Array("&quot;".utf8)
            case 0x09 where inAttribute: out += Array("&#9;".utf8)
            case 0x0A where inAttribute: out += Array("&#10;".utf8)
            case 0x0D where inAttribute: out += Array("&#13;".utf8)
            default: out.append(byte)
            }
        }
        return out
    }

    private static func contains(_ text: [UInt8], _ needle: String) -> Bool {
        let pattern = Array(needle.utf8)
        guard text.count >= pattern.count else { return false }
        return (0...(text.count - pattern.count)).contains { text[$0..<($0 + pattern.count)].elementsEqual(pattern) }
    }
}
