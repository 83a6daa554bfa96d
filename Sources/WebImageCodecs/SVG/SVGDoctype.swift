import WebImage

/// Reads a `<!DOCTYPE …>` declaration for its entities. The declaration itself never reaches
/// librsvg (the rewritten document has none, its entities already expanded): what a document
/// type could do beyond plain-text entities — parameter entities, external entities and DTDs —
/// is refused or ignored here.
enum SVGDoctype {
    /// Reads the declaration from just after `<!DOCTYPE` to its closing `>`, declaring its
    /// internal subset's entities in `entities`.
    static func read(_ scanner: inout SVGByteScanner, into entities: inout SVGEntities) throws(ImageCodingError) {
        while !scanner.atEnd {
            scanner.skipWhitespace()
            switch scanner.current {
            case UInt8(ascii: ">"):
                scanner.position += 1
                return
            case UInt8(ascii: "["):
                scanner.position += 1
                try readInternalSubset(&scanner, into: &entities)
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                _ = try scanner.readQuoted()
            default:
                _ = try scanner.readName()
            }
        }
        throw .truncated(.svg)
    }

    /// The declarations between `[` and `]`.
    private static func readInternalSubset(_ scanner: inout SVGByteScanner, into entities: inout SVGEntities) throws(ImageCodingError) {
        while true {
            scanner.skipWhitespace()
            if scanner.atEnd { throw .truncated(.svg) }
            if scanner.skip("]") { return }
            if scanner.skip("<!ENTITY") {
                try readEntity(&scanner, into: &entities)
            } else if scanner.skip("<!--") {
                _ = try scanner.read(until: "-->")
            } else if scanner.skip("<?") {
                _ = try scanner.read(until: "?>")
            } else if scanner.skip("<!") {
                try skipDeclaration(&scanner)
            } else if scanner.current == UInt8(ascii: "%") {
                throw .unsupportedFeature(.svg, "a parameter entity reference in the document type")
            } else {
                throw .corrupt(.svg, "unexpected text in the document type at byte \(scanner.position)")
            }
        }
    }

    /// `name "value">` after `<!ENTITY`: a general entity with a literal value.
    private static func readEntity(_ scanner: inout SVGByteScanner, into entities: inout SVGEntities) throws(ImageCodingError) {
        scanner.skipWhitespace()
        if scanner.current == UInt8(ascii: "%") {
            throw .unsupportedFeature(.svg, "a parameter entity declaration")
        }
        let name = try scanner.readName()
        scanner.skipWhitespace()
        if scanner.starts(with: "SYSTEM") || scanner.starts(with: "PUBLIC") {
            throw .unsupportedFeature(.svg, "an external entity (a reference to a file or URL)")
        }
        let value = try scanner.readQuoted()
        scanner.skipWhitespace()
        guard scanner.skip(">") else {
            if scanner.atEnd { throw .truncated(.svg) }
            throw .corrupt(.svg, "an entity declaration not closed by > at byte \(scanner.position)")
        }
        try entities.declare(name, value: value)
    }

    /// An element, attribute-list or notation declaration, up to its `>` (quoted `>` skipped).
    private static func skipDeclaration(_ scanner: inout SVGByteScanner) throws(ImageCodingError) {
        while !scanner.atEnd {
            switch scanner.current {
            case UInt8(ascii: ">"):
                scanner.position += 1
                return
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                _ = try scanner.readQuoted()
            default:
                scanner.position += 1
            }
        }
        throw .truncated(.svg)
    }
}
