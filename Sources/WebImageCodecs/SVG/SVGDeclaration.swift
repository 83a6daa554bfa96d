import WebImage

/// The XML declaration that may open a document (`<?xml version="1.0" encoding="UTF-8"?>`),
/// read so that the sanitized document opens with one written anew, naming an encoding that
/// reads ASCII as ASCII.
///
/// The writer decides what a document holds by its ASCII bytes (`<`, quotes, names). An
/// encoding in which those bytes mean something else (UTF-16, UTF-7, ISO-2022-JP and other
/// stateful ones) would let a browser read markup the writer never saw, so a document
/// declaring one is refused. Only `<?xml` followed by white space is the declaration; any
/// other processing instruction (`<?xml-stylesheet …?>`) is dropped by the writer, so that no
/// reader takes an encoding from it. The written declaration holds the version and the
/// encoding alone, in the spelling a reader looks for.
enum SVGDeclaration {
    /// The encodings whose documents are written on: each reads every ASCII byte as itself.
    private static let encodings: Set<[UInt8]> = Set(["utf-8", "utf8", "us-ascii", "ascii", "iso-8859-1", "latin1"]
        .map { Array($0.utf8) })

    /// Whether the scanner is at the declaration: `<?xml` and white space.
    static func isAt(_ scanner: SVGByteScanner) -> Bool {
        scanner.starts(with: "<?xml") && SVGByteScanner.isWhitespace(scanner.byte(at: scanner.position + 5))
    }

    /// The declaration to write for the one at the scanner's position (`<?xml` … `?>`), moving
    /// past it; throws ``ImageCodingError/unsupportedFeature(_:_:)`` for an encoding outside
    /// ``encodings``.
    static func read(_ scanner: inout SVGByteScanner) throws(ImageCodingError) -> [UInt8] {
        let start = scanner.position
        _ = try scanner.read(until: "?>")
        guard let encoding = encoding(in: Array(scanner.bytes[start..<scanner.position])) else {
            return Array(#"<?xml version="1.0"?>"#.utf8)
        }
        let name = encoding.map(SVGByteScanner.lowercased)
        guard encodings.contains(name) else {
            throw .unsupportedFeature(.svg, "the encoding \(String(decoding: name, as: UTF8.self).debugDescription)")
        }
        return Array(#"<?xml version="1.0" encoding=""#.utf8) + name + Array(#""?>"#.utf8)
    }

    /// The value of the `encoding` pseudo-attribute of `declaration` (the name compared as
    /// written: XML's names are case-sensitive), nil when there is none, empty when it is not
    /// a quoted value.
    private static func encoding(in declaration: [UInt8]) -> [UInt8]? {
        let name = Array("encoding".utf8)
        guard let at = declaration.indices.first(where: { declaration[$0...].starts(with: name) }) else { return nil }
        var scanner = SVGByteScanner(bytes: declaration, position: at + name.count)
        scanner.skipWhitespace()
        guard scanner.skip("=") else { return [] }
        scanner.skipWhitespace()
        return (try? scanner.readQuoted()).map(Array.init) ?? []
    }
}
