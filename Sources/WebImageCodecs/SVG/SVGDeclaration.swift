import WebImage

/// The XML declaration that may open a document (`<?xml version="1.0" encoding="UTF-8"?>`),
/// read so that the sanitized document keeps it only when its encoding reads ASCII as ASCII.
///
/// The writer decides what a document holds by its ASCII bytes (`<`, quotes, names). An
/// encoding in which those bytes mean something else (UTF-16, UTF-7, ISO-2022-JP and other
/// stateful ones) would let a browser read markup the writer never saw, so a document
/// declaring one is refused rather than passed on.
enum SVGDeclaration {
    /// The encodings whose documents are written on: each reads every ASCII byte as itself.
    private static let encodings: Set<[UInt8]> = Set(["utf-8", "utf8", "us-ascii", "ascii", "iso-8859-1", "latin1"]
        .map { Array($0.utf8) })

    /// The declaration at the scanner's position (`<?xml` … `?>`), moving past it; throws
    /// ``ImageCodingError/unsupportedFeature(_:_:)`` for an encoding outside ``encodings``.
    static func read(_ scanner: inout SVGByteScanner) throws(ImageCodingError) -> ArraySlice<UInt8> {
        let start = scanner.position
        _ = try scanner.read(until: "?>")
        let declaration = scanner.bytes[start..<scanner.position]
        if let encoding = encoding(in: Array(declaration)), !encodings.contains(encoding) {
            throw .unsupportedFeature(.svg, "the encoding \(String(decoding: encoding, as: UTF8.self).debugDescription)")
        }
        return declaration
    }

    /// The value of the `encoding` pseudo-attribute of `declaration`, in small letters; nil
    /// when there is none, empty when it is not a quoted value.
    private static func encoding(in declaration: [UInt8]) -> [UInt8]? {
        let lower = declaration.map(SVGByteScanner.lowercased)
        let name = Array("encoding".utf8)
        guard let at = lower.indices.first(where: { lower[$0...].starts(with: name) }) else { return nil }
        var scanner = SVGByteScanner(bytes: lower, position: at + name.count)
        scanner.skipWhitespace()
        guard scanner.skip("=") else { return [] }
        scanner.skipWhitespace()
        return (try? scanner.readQuoted()).map(Array.init) ?? []
    }
}
